import { describe, expect, it } from "vitest";
import { apiKeys } from "@/db/schema";
import { database } from "@/db";
import { createKey } from "@/lib/domain/keys/create-key";
import { checkAuthorizeRequest, type AuthorizeCheck } from "@/lib/domain/oauth/check-authorize-request";
import { denyConsent } from "@/lib/domain/oauth/deny-consent";
import { grantConsent } from "@/lib/domain/oauth/grant-consent";
import { AppError } from "@/lib/base/errors";
import { operatorCtx } from "../support/fixtures";
import { rows } from "./rows";
import { authorizeQuery, challenge, ctxOf, exchange, freshAccount, freshClient, redirectUri } from "./support";

async function check(clientId: string, overrides: Record<string, string | undefined> = {}) {
  const account = await freshAccount();
  return checkAuthorizeRequest({ ctx: account.ctx, input: authorizeQuery(clientId, overrides) });
}

/** The query the app receives at its redirect address, which must keep the registered address's own query. */
function redirected(result: AuthorizeCheck | { redirectTo: string }) {
  if (!("redirectTo" in result)) throw new Error(`not a redirect: ${JSON.stringify(result)}`);
  expect(result.redirectTo.startsWith(`${redirectUri}&`)).toBe(true);
  const params = new URL(result.redirectTo).searchParams;
  expect(params.get("tenant")).toBe("7");
  expect(params.get("iss")).toBe("http://localhost:3000");
  return params;
}

describe("checkAuthorizeRequest – the page shows the error and never redirects", () => {
  it("refuses a missing or unknown client_id and a missing or unregistered redirect_uri", async () => {
    const client = await freshClient();
    const cases: [Record<string, string | undefined>, string][] = [
      [{ client_id: undefined }, "missing_client_id"],
      [{ client_id: "svcc_0000000000000000" }, "unknown_client"],
      [{ client_id: "not-a-client" }, "unknown_client"],
      [{ redirect_uri: undefined }, "missing_redirect_uri"],
      [{ redirect_uri: "https://evil.example.com/cb" }, "unregistered_redirect_uri"],
      // Exact match: not a prefix, not another query, not another case.
      [{ redirect_uri: "https://crm.example.com/oauth/callback" }, "unregistered_redirect_uri"],
      [{ redirect_uri: `${redirectUri}&x=1` }, "unregistered_redirect_uri"],
      [{ redirect_uri: redirectUri.toUpperCase() }, "unregistered_redirect_uri"],
    ];
    for (const [overrides, reason] of cases) {
      const result = await check(client.client_id, overrides);
      expect(result, JSON.stringify(overrides)).toEqual({ kind: "invalid_client_or_redirect", reason, detail: expect.any(String) });
      expect(result).not.toHaveProperty("redirectTo");
    }
    const twice = await checkAuthorizeRequest({
      ctx: (await freshAccount()).ctx,
      input: { ...authorizeQuery(client.client_id), client_id: [client.client_id, client.client_id] },
    });
    expect(twice).toMatchObject({ kind: "invalid_client_or_redirect", reason: "duplicate_parameter" });
  });

  it("says why in the page's language", async () => {
    const account = await freshAccount();
    const ro = await checkAuthorizeRequest({ ctx: { ...account.ctx, locale: "ro" }, input: authorizeQuery("svcc_0000000000000000") });
    expect(ro).toMatchObject({ detail: "Nicio aplicație nu are acest client_id." });
    const en = await checkAuthorizeRequest({ ctx: account.ctx, input: authorizeQuery("svcc_0000000000000000") });
    expect(en).toMatchObject({ detail: "No app has this client_id." });
  });
});

describe("checkAuthorizeRequest – errors go back to the app with its state", () => {
  it.each([
    [{ response_type: "token" }, "unsupported_response_type", undefined],
    [{ response_type: undefined }, "invalid_request", "response_type"],
    [{ scope: undefined }, "invalid_scope", "permission"],
    [{ scope: "  " }, "invalid_scope", "permission"],
    [{ scope: "listings:read admin" }, "invalid_scope", "admin"],
    [{ code_challenge: undefined }, "invalid_request", "code_challenge"],
    [{ code_challenge_method: "plain" }, "invalid_request", "S256"],
    [{ code_challenge_method: undefined }, "invalid_request", "S256"],
    [{ code_challenge: "short" }, "invalid_request", "base64url"],
  ] as const)("%j → %s", async (overrides, error, inDescription) => {
    const client = await freshClient();
    const result = await check(client.client_id, overrides);
    expect(result).toMatchObject({ kind: "redirect_error", error });
    const params = redirected(result);
    expect(params.get("error")).toBe(error);
    expect(params.get("state")).toBe("xyz-state");
    if (inDescription) expect(params.get("error_description")).toContain(inDescription);
    expect(params.get("error_description")).toMatch(/^[\x20\x21\x23-\x5B\x5D-\x7E]+$/);
  });

  it("requires state: without it the error carries none", async () => {
    const client = await freshClient();
    const result = await check(client.client_id, { state: undefined });
    expect(result).toMatchObject({ kind: "redirect_error", error: "invalid_request" });
    const params = redirected(result);
    expect(params.has("state")).toBe(false);
    expect(params.get("error_description")).toBe("The parameter state is required.");
  });

  it("refuses a parameter sent twice", async () => {
    const client = await freshClient();
    const result = await checkAuthorizeRequest({
      ctx: (await freshAccount()).ctx,
      input: { ...authorizeQuery(client.client_id), scope: ["listings:read", "listings:write"] },
    });
    expect(result).toMatchObject({ kind: "redirect_error", error: "invalid_request" });
    expect(redirected(result).get("error_description")).toContain("scope");
  });

  it("accepts a valid request, with the permissions in the registry's order, each once", async () => {
    const client = await freshClient();
    const result = await check(client.client_id, { scope: "media:write listings:read media:write" });
    expect(result).toEqual({
      kind: "ok",
      client: { id: client.client_id, name: client.name, selfRegistered: false, clientUri: null, documentHost: null },
      redirectUri,
      scope: ["listings:read", "media:write"],
      state: "xyz-state",
      codeChallenge: challenge,
      resource: null,
    });
  });

  it("accepts a loopback redirect address of an app on the user's machine", async () => {
    const client = await freshClient(["http://127.0.0.1:8765/cb"]);
    expect((await check(client.client_id, { redirect_uri: "http://127.0.0.1:8765/cb" })).kind).toBe("ok");
    // RFC 8252 §7.3: on a loopback address any port goes; the rest must match.
    expect(await check(client.client_id, { redirect_uri: "http://127.0.0.1:51234/cb" })).toMatchObject({
      kind: "ok",
      redirectUri: "http://127.0.0.1:51234/cb",
    });
    expect((await check(client.client_id, { redirect_uri: "http://127.0.0.1/cb" })).kind).toBe("ok");
    for (const other of [
      "http://127.0.0.1:51234/cb2",
      "http://localhost:8765/cb",
      "https://127.0.0.1:8765/cb",
      "http://127.0.0.1:51234/cb?x=1",
    ]) {
      expect((await check(client.client_id, { redirect_uri: other })).kind, other).toBe("invalid_client_or_redirect");
    }
  });
});

describe("grantConsent and denyConsent", () => {
  it("redirects with a code of 43 base64url characters, the state and the registered query", async () => {
    const client = await freshClient();
    const account = await freshAccount();
    const request = await checkAuthorizeRequest({ ctx: account.ctx, input: authorizeQuery(client.client_id) });
    if (request.kind !== "ok") throw new Error("refused");
    const consent = await grantConsent({ ctx: account.ctx, input: request });
    if (consent.kind !== "redirect") throw new Error("refused");
    const params = redirected(consent);
    expect(params.get("code")).toBe(consent.code);
    expect(consent.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get("state")).toBe("xyz-state");
    expect(params.has("error")).toBe(false);
  });

  it("stores only the code's hash", async () => {
    const client = await freshClient();
    const account = await freshAccount();
    const request = await checkAuthorizeRequest({ ctx: account.ctx, input: authorizeQuery(client.client_id) });
    if (request.kind !== "ok") throw new Error("refused");
    const consent = await grantConsent({ ctx: account.ctx, input: request });
    if (consent.kind !== "redirect") throw new Error("refused");
    expect(await rows(`select * from oauth_codes where account_id = '${account.id}'`)).not.toContain(consent.code);
  });

  it("denies with access_denied and the state", async () => {
    const client = await freshClient();
    const account = await freshAccount();
    const request = await checkAuthorizeRequest({ ctx: account.ctx, input: authorizeQuery(client.client_id) });
    if (request.kind !== "ok") throw new Error("refused");
    const params = redirected(await denyConsent({ ctx: account.ctx, input: request }));
    expect(params.get("error")).toBe("access_denied");
    expect(params.get("state")).toBe("xyz-state");
    expect(params.has("code")).toBe(false);
  });

  it("refuses a request whose app or redirect address the page changed", async () => {
    const client = await freshClient();
    const account = await freshAccount();
    const request = await checkAuthorizeRequest({ ctx: account.ctx, input: authorizeQuery(client.client_id) });
    if (request.kind !== "ok") throw new Error("refused");
    const forged = { ...request, redirectUri: "https://evil.example.com/cb" };
    await expect(grantConsent({ ctx: account.ctx, input: forged })).rejects.toMatchObject({ code: "not_found" });
    await expect(denyConsent({ ctx: account.ctx, input: forged })).rejects.toBeInstanceOf(AppError);
  });

  it("refuses consent at 10 usable keys unless this app's key would be replaced", async () => {
    const client = await freshClient();
    const account = await freshAccount();
    const request = await checkAuthorizeRequest({ ctx: account.ctx, input: authorizeQuery(client.client_id) });
    if (request.kind !== "ok") throw new Error("refused");
    const connected = await grantConsent({ ctx: account.ctx, input: request });
    if (connected.kind !== "redirect") throw new Error("refused");
    await exchange(client, connected.code);
    const operator = await operatorCtx();
    for (let i = 0; i < 9; i++) {
      await createKey({ ctx: operator, input: { accountId: account.id, name: `k${i}`, permissions: ["listings:read"], days: 30 } });
    }
    // 10 usable keys, one of them this app's: a new consent replaces it.
    expect((await grantConsent({ ctx: account.ctx, input: request })).kind).toBe("redirect");

    const other = await freshClient();
    const otherRequest = await checkAuthorizeRequest({ ctx: account.ctx, input: authorizeQuery(other.client_id) });
    if (otherRequest.kind !== "ok") throw new Error("refused");
    expect(await grantConsent({ ctx: account.ctx, input: otherRequest })).toEqual({ kind: "refused", reason: "too_many_keys", limit: 10 });
    const { connection: db } = await database();
    expect((await db.select().from(apiKeys)).filter((key) => key.accountId === account.id)).toHaveLength(10);
  });

  it("refuses consent of an account whose e-mail address is not confirmed", async () => {
    const client = await freshClient();
    const account = await freshAccount({ confirmed: false });
    const request = await checkAuthorizeRequest({ ctx: await ctxOf(account.id), input: authorizeQuery(client.client_id) });
    if (request.kind !== "ok") throw new Error("refused");
    expect(await grantConsent({ ctx: account.ctx, input: request })).toEqual({ kind: "refused", reason: "unconfirmed_account" });
  });
});
