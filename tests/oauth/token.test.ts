import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as ping } from "@/app/api/v1/ping/route";
import { database } from "@/db";
import { activityLog, apiKeys, oauthCodes, oauthConnections } from "@/db/schema";
import { call } from "../support/fixtures";
import { basic, challenge, consentCode, exchange, freshAccount, freshClient, postToken, redirectUri, tokenForm, verifier } from "./support";

async function connectable() {
  const client = await freshClient();
  const account = await freshAccount();
  return { client, account, code: await consentCode(account.id, client.client_id, { scope: ["listings:read", "media:write"] }) };
}

function expectOAuthError(res: Awaited<ReturnType<typeof postToken>>, status: number, error: string, reason?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("pragma")).toBe("no-cache");
  expect(res.json).toMatchObject({ error, code: error, status, type: `http://localhost:3000/problems/${error}` });
  expect(res.json?.reason).toBe(reason);
  expect(res.json?.title).toEqual(expect.any(String));
  expect(res.json?.detail).toEqual(expect.any(String));
  // RFC 6749 §5.2: error_description is printable ASCII without `"` and `\`.
  expect(res.json?.error_description).toMatch(/^[\x20\x21\x23-\x5B\x5D-\x7E]+$/);
}

describe("POST /oauth/token – success", () => {
  it("exchanges a code with the RFC 7636 Appendix B verifier for a 365-day key of the connection", async () => {
    const { client, account, code } = await connectable();
    const res = await postToken(tokenForm(client, code));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(res.json).toEqual({
      access_token: expect.stringMatching(/^key_[0-9a-z]{16}\|svc_test_[A-Za-z0-9]{40}$/),
      token_type: "Bearer",
      expires_in: 365 * 86_400,
      scope: "listings:read media:write",
      connection_id: expect.any(Number),
    });
    const key = res.json!.access_token as string;
    const pong = await call(ping, { path: "/ping", key });
    expect(pong.status).toBe(200);
    expect(pong.json?.data).toMatchObject({
      key: { permissions: ["listings:read", "media:write"], name: client.name },
      account: { id: account.id },
    });

    const { connection: db } = await database();
    const [row] = await db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.id, key.slice(0, key.indexOf("|"))));
    expect(row.connectionId).toBe(res.json!.connection_id);
    const [connection] = await db.select().from(oauthConnections).where(eq(oauthConnections.id, res.json!.connection_id));
    expect(connection).toMatchObject({
      accountId: account.id,
      clientId: client.client_id,
      scope: ["listings:read", "media:write"],
      disconnectedAt: null,
    });
    const actions = (await db.select().from(activityLog).where(eq(activityLog.accountId, account.id))).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["api_key.created", "app.connected"]));
  });

  it("accepts HTTP Basic with the id and secret form-urlencoded, and client_id repeated in the body", async () => {
    const { client, code } = await connectable();
    const { client_id, client_secret, ...form } = tokenForm(client, code);
    const res = await postToken({ ...form, client_id }, { authorization: basic(client_id, client_secret) });
    expect(res.status, res.text).toBe(200);
  });
});

describe("POST /oauth/token – refusals", () => {
  it("refuses a wrong verifier, and a verifier too short, too long or with other characters", async () => {
    const { client, code } = await connectable();
    expectOAuthError(
      await postToken(tokenForm(client, code, { code_verifier: "a".repeat(43) })),
      400,
      "invalid_grant",
      "code_verifier_mismatch",
    );
    for (const wrong of ["a".repeat(42), "a".repeat(129), `${"a".repeat(42)}!`, `${"a".repeat(42)} `]) {
      expectOAuthError(await postToken(tokenForm(client, code, { code_verifier: wrong })), 400, "invalid_request", "code_verifier_format");
    }
    // None of these used the code up.
    expect((await postToken(tokenForm(client, code))).status).toBe(200);
  });

  it("refuses an expired code: codes live 60 seconds", async () => {
    const client = await freshClient();
    const account = await freshAccount();
    const code = await consentCode(account.id, client.client_id, { now: new Date(Date.now() - 61_000) });
    expectOAuthError(await postToken(tokenForm(client, code)), 400, "invalid_grant", "code_expired");
  });

  it("refuses a code presented again and revokes the key its first exchange granted", async () => {
    const { client, account, code } = await connectable();
    const first = await exchange(client, code);
    expect((await call(ping, { path: "/ping", key: first.access_token })).status).toBe(200);
    expectOAuthError(await postToken(tokenForm(client, code)), 400, "invalid_grant", "code_used");
    const after = await call(ping, { path: "/ping", key: first.access_token });
    expect(after.status).toBe(401);
    expect(after.json?.code).toBe("unauthenticated");
    const { connection: db } = await database();
    const [connection] = await db.select().from(oauthConnections).where(eq(oauthConnections.id, first.connection_id));
    expect(connection.disconnectedAt).not.toBeNull();
    const actions = (await db.select().from(activityLog).where(eq(activityLog.accountId, account.id))).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["api_key.revoked", "app.disconnected"]));
  });

  it("withdraws the whole consent on a replay: the account's other unused codes for the app are refused, another account's are not", async () => {
    const { client, account, code } = await connectable();
    const unused = await consentCode(account.id, client.client_id);
    const otherAccount = await freshAccount();
    const othersCode = await consentCode(otherAccount.id, client.client_id);
    const first = await exchange(client, code);

    expectOAuthError(await postToken(tokenForm(client, code)), 400, "invalid_grant", "code_used");
    expect((await call(ping, { path: "/ping", key: first.access_token })).status).toBe(401);
    expectOAuthError(await postToken(tokenForm(client, unused)), 400, "invalid_grant", "code_unknown");
    const others = await exchange(client, othersCode);
    expect((await call(ping, { path: "/ping", key: others.access_token })).status).toBe(200);
  });

  it("revokes on a replay the connection's key that a later code granted in place of the replayed code's", async () => {
    const { client, account, code } = await connectable();
    const first = await exchange(client, code);
    const later = await exchange(client, await consentCode(account.id, client.client_id));
    expect(later.connection_id).toBe(first.connection_id);
    expect((await call(ping, { path: "/ping", key: later.access_token })).status).toBe(200);

    expectOAuthError(await postToken(tokenForm(client, code)), 400, "invalid_grant", "code_used");
    expect((await call(ping, { path: "/ping", key: later.access_token })).status).toBe(401);
    const { connection: db } = await database();
    const [connection] = await db.select().from(oauthConnections).where(eq(oauthConnections.id, later.connection_id));
    expect(connection.disconnectedAt).not.toBeNull();
  });

  it("refuses an unknown code and another app's code (the same answer), without using it up", async () => {
    const { client, code } = await connectable();
    const other = await freshClient();
    expectOAuthError(await postToken(tokenForm(client, "x".repeat(43))), 400, "invalid_grant", "code_unknown");
    expectOAuthError(await postToken(tokenForm(other, code)), 400, "invalid_grant", "code_unknown");
    expect((await postToken(tokenForm(client, code))).status).toBe(200);
  });

  it("refuses another redirect_uri than the consent request's, even one the app registered", async () => {
    const { client, code } = await connectable();
    expectOAuthError(
      await postToken(tokenForm(client, code, { redirect_uri: "http://127.0.0.1:8765/cb" })),
      400,
      "invalid_grant",
      "redirect_uri_mismatch",
    );
    expectOAuthError(
      await postToken(tokenForm(client, code, { redirect_uri: redirectUri.replace("tenant=7", "tenant=8") })),
      400,
      "invalid_grant",
      "redirect_uri_mismatch",
    );
  });

  it("answers a wrong secret and an unknown client with 401 invalid_client, with the Basic challenge after Basic only", async () => {
    const { client, code } = await connectable();
    const wrongSecret = `svcs_${"A".repeat(40)}`;
    const inBody = await postToken(tokenForm(client, code, { client_secret: wrongSecret }));
    expectOAuthError(inBody, 401, "invalid_client");
    expect(inBody.headers.get("www-authenticate")).toBeNull();
    expectOAuthError(await postToken(tokenForm(client, code, { client_id: "svcc_0000000000000000" })), 401, "invalid_client");

    const { client_id, client_secret, ...form } = tokenForm(client, code);
    expect(client_secret).toBeTruthy();
    const viaBasic = await postToken(form, { authorization: basic(client_id, wrongSecret) });
    expectOAuthError(viaBasic, 401, "invalid_client");
    expect(viaBasic.headers.get("www-authenticate")).toBe('Basic realm="oauth", charset="UTF-8"');
    const malformed = await postToken(form, { authorization: "Basic %%%" });
    expectOAuthError(malformed, 401, "invalid_client", "malformed_basic");
    expect(malformed.headers.get("www-authenticate")).toMatch(/^Basic /);
    expectOAuthError(await postToken(form), 401, "invalid_client", "no_client_authentication");
    // The secret of one app does not authenticate another.
    const other = await freshClient();
    expectOAuthError(
      await postToken(tokenForm({ client_id: other.client_id, client_secret: client.client_secret }, code)),
      401,
      "invalid_client",
    );
    expect((await postToken(tokenForm(client, code))).status).toBe(200);
  });

  it("refuses HTTP Basic together with client_secret in the body, and a body client_id other than Basic's", async () => {
    const { client, code } = await connectable();
    const authorization = basic(client.client_id, client.client_secret);
    expectOAuthError(await postToken(tokenForm(client, code), { authorization }), 400, "invalid_request", "two_client_authentications");
    const { client_secret, ...form } = tokenForm(client, code);
    expect(client_secret).toBeTruthy();
    expectOAuthError(
      await postToken({ ...form, client_id: "svcc_0000000000000000" }, { authorization }),
      400,
      "invalid_request",
      "client_id_mismatch",
    );
  });

  it("refuses another grant type and each missing parameter", async () => {
    const { client, code } = await connectable();
    expectOAuthError(await postToken(tokenForm(client, code, { grant_type: "client_credentials" })), 400, "unsupported_grant_type");
    expectOAuthError(await postToken(tokenForm(client, code, { grant_type: "refresh_token" })), 400, "unsupported_grant_type");
    for (const parameter of ["grant_type", "code", "redirect_uri", "code_verifier"]) {
      const form = tokenForm(client, code);
      delete form[parameter];
      const res = await postToken(form);
      expectOAuthError(res, 400, "invalid_request", "missing_parameter");
      expect(res.json?.detail).toContain(parameter);
    }
    // An empty value is an absent one (RFC 6749 §3.1).
    expectOAuthError(await postToken(tokenForm(client, code, { code: "" })), 400, "invalid_request", "missing_parameter");
  });

  it("refuses a parameter sent twice", async () => {
    const { client, code } = await connectable();
    const body = `${new URLSearchParams(tokenForm(client, code)).toString()}&code=${code}`;
    const res = await postToken(body);
    expectOAuthError(res, 400, "invalid_request", "duplicate_parameter");
    expect(res.json?.detail).toContain("code");
  });

  it("refuses a body that is not application/x-www-form-urlencoded, and bytes that are not UTF-8", async () => {
    const { client, code } = await connectable();
    const { POST } = await import("@/app/api/v1/oauth/token/route");
    for (const contentType of ["application/json", "text/plain", "multipart/form-data; boundary=x"]) {
      const res = await call(POST, {
        path: "/oauth/token",
        method: "POST",
        rawBody: JSON.stringify(tokenForm(client, code)),
        headers: { "content-type": contentType },
      });
      expectOAuthError(res, 400, "invalid_request", "form_content_type");
    }
    const none = await call(POST, { path: "/oauth/token", method: "POST", rawBody: "grant_type=authorization_code" });
    expectOAuthError(none, 400, "invalid_request", "form_content_type");
    const latin1 = new Request("http://localhost:3000/api/v1/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new Uint8Array([0x63, 0x6f, 0x64, 0x65, 0x3d, 0xff]),
    });
    const res = await POST(latin1, { params: Promise.resolve({}) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request", reason: "malformed_form" });
  });

  it("answers in the request's language, the description in ASCII", async () => {
    const { client } = await connectable();
    const { POST } = await import("@/app/api/v1/oauth/token/route");
    const res = await call(POST, {
      path: "/oauth/token?locale=ro",
      method: "POST",
      rawBody: new URLSearchParams(tokenForm(client, "x".repeat(43))).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectOAuthError(res, 400, "invalid_grant", "code_unknown");
    expect(res.headers.get("content-language")).toBe("ro");
    expect(res.json?.detail).toBe("Codul de autorizare este necunoscut sau a fost emis pentru altă aplicație.");
    expect(res.json?.error_description).toBe("Codul de autorizare este necunoscut sau a fost emis pentru alta aplicatie.");
  });

  it("answers other methods with 405", async () => {
    const { GET } = await import("@/app/api/v1/oauth/token/route");
    const res = await call(GET, { path: "/oauth/token" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("POST /oauth/token – one code, one key", () => {
  it("gives one success of two simultaneous exchanges of one code; the other is a replay and revokes the key", async () => {
    const { client, code } = await connectable();
    const answers = await Promise.all([postToken(tokenForm(client, code)), postToken(tokenForm(client, code))]);
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 400]);
    const success = answers.find((res) => res.status === 200)!;
    const refusal = answers.find((res) => res.status === 400)!;
    expect(refusal.json).toMatchObject({ error: "invalid_grant", reason: "code_used" });
    const { connection: db } = await database();
    const keys = await db.select().from(apiKeys).where(eq(apiKeys.connectionId, success.json!.connection_id));
    expect(keys).toHaveLength(1);
    expect(keys[0].revokedAt).not.toBeNull();
    const [row] = await db.select().from(oauthCodes).where(eq(oauthCodes.keyId, keys[0].id));
    expect(row.usedAt).not.toBeNull();
  });

  it("keeps connection_id on a second consent, replaces the key and takes the new scope", async () => {
    const client = await freshClient();
    const account = await freshAccount();
    const first = await exchange(client, await consentCode(account.id, client.client_id, { scope: ["listings:read"] }));
    const second = await exchange(client, await consentCode(account.id, client.client_id, { scope: ["listings:read", "listings:write"] }));
    expect(second.connection_id).toBe(first.connection_id);
    expect(second.scope).toBe("listings:read listings:write");
    expect(second.access_token).not.toBe(first.access_token);
    expect((await call(ping, { path: "/ping", key: first.access_token })).status).toBe(401);
    expect((await call(ping, { path: "/ping", key: second.access_token })).status).toBe(200);
    const { connection: db } = await database();
    const [connection] = await db.select().from(oauthConnections).where(eq(oauthConnections.id, first.connection_id));
    expect(connection.scope).toEqual(["listings:read", "listings:write"]);
  });

  it("gives the challenge of the Appendix B verifier", async () => {
    const { s256 } = await import("@/lib/domain/oauth/secrets");
    expect(s256(verifier)).toBe(challenge);
  });
});
