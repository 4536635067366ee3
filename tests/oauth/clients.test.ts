import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { activityLog } from "@/db/schema";
import { listOwnClients } from "@/lib/domain/oauth/list-own-clients";
import { registerClient } from "@/lib/domain/oauth/register-client";
import { rotateClientSecret } from "@/lib/domain/oauth/rotate-client-secret";
import { updateClientRedirectUris } from "@/lib/domain/oauth/update-client-redirect-uris";
import { ValidationError } from "@/lib/base/errors";
import { consentCode, freshAccount, postToken, redirectUri, tokenForm } from "./support";
import { rows } from "./rows";

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).errors.map((e) => ({
    pointer: e.pointer,
    code: e.code,
    reason: e.params && "reason" in e.params ? e.params.reason : undefined,
  }));
}

describe("registerClient", () => {
  it("registers an app with a client_id, a secret shown once and stored hashed, in the activity log", async () => {
    const owner = await freshAccount();
    const client = await registerClient({
      ctx: owner.ctx,
      input: { name: " My CRM ", redirect_uris: [redirectUri, redirectUri, "http://[::1]:9000/cb"] },
    });
    expect(client).toEqual({
      client_id: expect.stringMatching(/^svcc_[0-9a-z]{16}$/),
      client_secret: expect.stringMatching(/^svcs_[A-Za-z0-9]{40}$/),
      name: "My CRM",
      redirect_uris: [redirectUri, "http://[::1]:9000/cb"],
    });
    expect(await rows(`select * from oauth_clients where id = '${client.client_id}'`)).not.toContain(client.client_secret.slice(5));
    expect(await listOwnClients({ ctx: owner.ctx })).toEqual([
      {
        client_id: client.client_id,
        name: "My CRM",
        redirect_uris: client.redirect_uris,
        created_at: expect.any(Date),
        secret_rotated_at: null,
      },
    ]);
    const { connection: db } = await database();
    const [entry] = await db.select().from(activityLog).where(eq(activityLog.subjectId, client.client_id));
    expect(entry).toMatchObject({ accountId: owner.id, action: "app.registered", details: "My CRM" });
  });

  it("refuses redirect addresses that are not https or loopback http, relative, with a fragment, or too long", async () => {
    const owner = await freshAccount();
    const register = (redirect_uris: string[], name = "CRM") => registerClient({ ctx: owner.ctx, input: { name, redirect_uris } });
    expect(
      await refusal(
        register([
          "http://crm.example.com/cb",
          "/cb",
          "https://crm.example.com/cb#x",
          "custom-scheme:/cb",
          "http://127.0.0.2/cb",
          `https://crm.example.com/${"a".repeat(2048)}`,
        ]),
      ),
    ).toEqual([
      { pointer: "/redirect_uris/0", code: "invalid_value", reason: "redirect_uri_scheme" },
      { pointer: "/redirect_uris/1", code: "invalid_value", reason: "redirect_uri_scheme" },
      { pointer: "/redirect_uris/2", code: "invalid_value", reason: "redirect_uri_fragment" },
      { pointer: "/redirect_uris/3", code: "invalid_value", reason: "redirect_uri_scheme" },
      { pointer: "/redirect_uris/4", code: "invalid_value", reason: "redirect_uri_scheme" },
      { pointer: "/redirect_uris/5", code: "max", reason: undefined },
    ]);
    expect(await refusal(register([]))).toEqual([{ pointer: "/redirect_uris", code: "min", reason: undefined }]);
    const eleven = Array.from({ length: 11 }, (_, i) => `https://crm.example.com/cb${i}`);
    expect(await refusal(register(eleven))).toEqual([{ pointer: "/redirect_uris", code: "max", reason: undefined }]);
    expect(await refusal(register([redirectUri], " "))).toEqual([{ pointer: "/name", code: "min", reason: undefined }]);
    expect(await refusal(register([redirectUri], "x".repeat(101)))).toEqual([{ pointer: "/name", code: "max", reason: undefined }]);
  });

  it("refuses an account whose e-mail address is not confirmed", async () => {
    const owner = await freshAccount({ confirmed: false });
    await expect(registerClient({ ctx: owner.ctx, input: { name: "CRM", redirect_uris: [redirectUri] } })).rejects.toMatchObject({
      code: "forbidden",
    });
  });
});

describe("rotateClientSecret and updateClientRedirectUris", () => {
  it("stops the old secret at once and accepts the new one", async () => {
    const owner = await freshAccount();
    const client = await registerClient({ ctx: owner.ctx, input: { name: "CRM", redirect_uris: [redirectUri] } });
    const account = await freshAccount();
    const rotated = await rotateClientSecret({ ctx: owner.ctx, input: { client_id: client.client_id } });
    expect(rotated.client_secret).not.toBe(client.client_secret);
    const code = await consentCode(account.id, client.client_id);
    const old = await postToken(tokenForm(client, code));
    expect(old.status).toBe(401);
    expect(old.json?.error).toBe("invalid_client");
    expect((await postToken(tokenForm(rotated, code))).status).toBe(200);
    expect((await listOwnClients({ ctx: owner.ctx }))[0].secret_rotated_at).toEqual(expect.any(Date));
    const { connection: db } = await database();
    const actions = (await db.select().from(activityLog).where(eq(activityLog.accountId, owner.id))).map((e) => e.action).sort();
    expect(actions).toEqual(["account.created", "app.registered", "app.secret_rotated"]);
  });

  it("replaces the redirect addresses, checked like at registration", async () => {
    const owner = await freshAccount();
    const client = await registerClient({ ctx: owner.ctx, input: { name: "CRM", redirect_uris: [redirectUri] } });
    const updated = await updateClientRedirectUris({
      ctx: owner.ctx,
      input: { client_id: client.client_id, redirect_uris: ["https://crm.example.com/new"] },
    });
    expect(updated.redirect_uris).toEqual(["https://crm.example.com/new"]);
    expect((await listOwnClients({ ctx: owner.ctx }))[0].redirect_uris).toEqual(["https://crm.example.com/new"]);
    expect(
      await refusal(updateClientRedirectUris({ ctx: owner.ctx, input: { client_id: client.client_id, redirect_uris: ["ftp://x"] } })),
    ).toEqual([{ pointer: "/redirect_uris/0", code: "invalid_value", reason: "redirect_uri_scheme" }]);
  });

  it("answers another account's app like a missing one, and lists only the account's own apps", async () => {
    const owner = await freshAccount();
    const stranger = await freshAccount();
    const client = await registerClient({ ctx: owner.ctx, input: { name: "CRM", redirect_uris: [redirectUri] } });
    await expect(rotateClientSecret({ ctx: stranger.ctx, input: { client_id: client.client_id } })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      updateClientRedirectUris({
        ctx: stranger.ctx,
        input: { client_id: client.client_id, redirect_uris: ["https://evil.example.com/cb"] },
      }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(rotateClientSecret({ ctx: owner.ctx, input: { client_id: "svcc_0000000000000000" } })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await listOwnClients({ ctx: stranger.ctx })).toEqual([]);
    expect((await listOwnClients({ ctx: owner.ctx })).map((c) => c.redirect_uris)).toEqual([[redirectUri]]);
  });
});
