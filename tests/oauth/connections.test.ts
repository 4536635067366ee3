import { eq } from "drizzle-orm";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { describe, expect, it } from "vitest";
import { GET as metadata } from "@/app/.well-known/oauth-authorization-server/route";
import { GET as ping } from "@/app/api/v1/ping/route";
import { database } from "@/db";
import { activityLog, oauthConnections } from "@/db/schema";
import { disconnect } from "@/lib/domain/oauth/disconnect";
import { listConnections } from "@/lib/domain/oauth/list-connections";
import { config as proxyConfig } from "@/proxy";
import { accountWithKey, call } from "../support/fixtures";
import { basic, consentCode, exchange, freshAccount, freshClient, postRevoke } from "./support";

async function connected(scope: ("listings:read" | "listings:write" | "media:write")[] = ["listings:read"]) {
  const client = await freshClient();
  const account = await freshAccount();
  const token = await exchange(client, await consentCode(account.id, client.client_id, { scope }));
  return { client, account, token };
}

const pingStatus = async (key: string) => (await call(ping, { path: "/ping", key })).status;

describe("POST /oauth/revoke", () => {
  it("revokes a key of the app's connection and ends the connection: empty 200, no-store", async () => {
    const { client, account, token } = await connected();
    const res = await postRevoke(
      { token: token.access_token, token_type_hint: "access_token" },
      { authorization: basic(client.client_id, client.client_secret) },
    );
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await pingStatus(token.access_token)).toBe(401);
    expect(await listConnections({ ctx: account.ctx })).toEqual([]);
    // Revoking again changes nothing and answers the same.
    expect((await postRevoke({ token: token.access_token, client_id: client.client_id, client_secret: client.client_secret })).status).toBe(
      200,
    );
  });

  it("answers the same empty 200 for another app's key, a key made in the portal and anything else, revoking nothing", async () => {
    const { client, token } = await connected();
    const other = await freshClient();
    const portalKey = await accountWithKey();
    const credentials = { client_id: other.client_id, client_secret: other.client_secret };
    for (const value of [token.access_token, portalKey.key, "not-a-key", `${token.access_token.slice(0, 21)}svc_test_${"x".repeat(40)}`]) {
      const res = await postRevoke({ token: value, ...credentials });
      expect(res.status).toBe(200);
      expect(res.text).toBe("");
    }
    const wrongSecret = `${token.access_token.slice(0, 21)}svc_test_${"x".repeat(40)}`;
    expect((await postRevoke({ token: wrongSecret, client_id: client.client_id, client_secret: client.client_secret })).status).toBe(200);
    expect(await pingStatus(token.access_token)).toBe(200);
    expect(await pingStatus(portalKey.key)).toBe(200);
  });

  it("needs the app's authentication and a token", async () => {
    const { client, token } = await connected();
    const unauthenticated = await postRevoke({ token: token.access_token });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.json).toMatchObject({ error: "invalid_client", code: "invalid_client" });
    const wrong = await postRevoke({ token: token.access_token }, { authorization: basic(client.client_id, `svcs_${"A".repeat(40)}`) });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
    const missing = await postRevoke({ client_id: client.client_id, client_secret: client.client_secret });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error: "invalid_request", reason: "missing_parameter" });
    const json = await postRevoke(JSON.stringify({ token: token.access_token }), { "content-type": "application/json" });
    expect(json.status).toBe(400);
    expect(json.json).toMatchObject({ error: "invalid_request", reason: "form_content_type" });
    expect(await pingStatus(token.access_token)).toBe(200);
  });
});

describe("listConnections and disconnect", () => {
  it("lists the account's connected apps with scope, connected date and key expiry", async () => {
    const { client, account, token } = await connected(["listings:read", "media:write"]);
    expect(await listConnections({ ctx: account.ctx })).toEqual([
      {
        connection_id: token.connection_id,
        client_id: client.client_id,
        app_name: client.name,
        scope: ["listings:read", "media:write"],
        connected_at: expect.any(Date),
        key_expires_at: expect.any(Date),
      },
    ]);
    const [connection] = await listConnections({ ctx: account.ctx });
    const days = (connection.key_expires_at!.getTime() - connection.connected_at.getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(365);
    expect(await listConnections({ ctx: (await freshAccount()).ctx })).toEqual([]);
  });

  it("disconnects: the key stops at once, the activity log says so, and a new consent reconnects with the same connection_id", async () => {
    const { client, account, token } = await connected();
    const result = await disconnect({ ctx: account.ctx, input: { connection_id: token.connection_id } });
    expect(result).toEqual({ connection_id: token.connection_id, disconnected_at: expect.any(Date) });
    expect(await pingStatus(token.access_token)).toBe(401);
    expect(await listConnections({ ctx: account.ctx })).toEqual([]);
    const again = await disconnect({ ctx: account.ctx, input: { connection_id: token.connection_id } });
    expect(again.disconnected_at).toEqual(result.disconnected_at);
    const { connection: db } = await database();
    const actions = (await db.select().from(activityLog).where(eq(activityLog.accountId, account.id))).map((entry) => entry.action);
    expect(actions.filter((action) => action === "app.disconnected")).toHaveLength(1);

    const reconnected = await exchange(client, await consentCode(account.id, client.client_id));
    expect(reconnected.connection_id).toBe(token.connection_id);
    const [row] = await db.select().from(oauthConnections).where(eq(oauthConnections.id, token.connection_id));
    expect(row.disconnectedAt).toBeNull();
    expect(await pingStatus(reconnected.access_token)).toBe(200);
  });

  it("answers another account's connection like a missing one, and leaves it alone", async () => {
    const { token } = await connected();
    const stranger = await freshAccount();
    await expect(disconnect({ ctx: stranger.ctx, input: { connection_id: token.connection_id } })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(disconnect({ ctx: stranger.ctx, input: { connection_id: 2_000_000_000 } })).rejects.toMatchObject({ code: "not_found" });
    expect(await pingStatus(token.access_token)).toBe(200);
  });
});

describe("GET /.well-known/oauth-authorization-server", () => {
  it("is left alone by the page proxy (no CSP nonce for a JSON document), unlike the consent page", () => {
    const runs = (url: string) => unstable_doesMiddlewareMatch({ config: proxyConfig, url });
    expect(runs("/.well-known/oauth-authorization-server")).toBe(false);
    expect(runs("/oauth/authorize")).toBe(true);
  });

  it("publishes the RFC 8414 metadata with APP_URL as issuer", async () => {
    const res = metadata();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      issuer: "http://localhost:3000",
      authorization_endpoint: "http://localhost:3000/oauth/authorize",
      token_endpoint: "http://localhost:3000/api/v1/oauth/token",
      revocation_endpoint: "http://localhost:3000/api/v1/oauth/revoke",
      registration_endpoint: "http://localhost:3000/api/v1/oauth/register",
      client_id_metadata_document_supported: true,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      scopes_supported: ["listings:read", "listings:write", "media:write"],
      authorization_response_iss_parameter_supported: true,
      service_documentation: "http://localhost:3000/docs/api",
    });
  });
});
