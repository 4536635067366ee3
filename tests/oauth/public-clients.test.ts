import { describe, expect, it } from "vitest";
import { POST as mcp } from "@/app/api/mcp/route";
import { POST as registerHandler } from "@/app/api/v1/oauth/register/route";
import { GET as ping } from "@/app/api/v1/ping/route";
import { checkAuthorizeRequest } from "@/lib/domain/oauth/check-authorize-request";
import { grantConsent } from "@/lib/domain/oauth/grant-consent";
import { call, createdKeys } from "../support/fixtures";
import { authorizeQuery, basic, challenge, freshAccount, freshClient, postRevoke, postToken, verifier } from "./support";

const mcpResource = "http://localhost:3000/api/mcp";
const apiResource = "http://localhost:3000/api/v1";
const loopback = "http://127.0.0.1:33418/callback";

const register = (body: unknown) => call(registerHandler, { path: "/oauth/register", method: "POST", body });

async function publicClient(metadata: Record<string, unknown> = {}) {
  const res = await register({ client_name: "Agent CLI", redirect_uris: [loopback], token_endpoint_auth_method: "none", ...metadata });
  if (res.status !== 201) throw new Error(`registration refused: ${res.text}`);
  return res.json as { client_id: string; client_name: string };
}

/** Consent for `clientId` on `account`, asked for `resource` (or none), through the checks the consent page runs. */
async function consent(account: Awaited<ReturnType<typeof freshAccount>>, clientId: string, extra: Record<string, string> = {}) {
  const check = await checkAuthorizeRequest({ ctx: account.ctx, input: authorizeQuery(clientId, { redirect_uri: loopback, ...extra }) });
  if (check.kind !== "ok") throw new Error(`consent request refused: ${JSON.stringify(check)}`);
  const granted = await grantConsent({ ctx: account.ctx, input: check });
  if (granted.kind !== "redirect") throw new Error(`consent refused: ${JSON.stringify(granted)}`);
  return { check, code: granted.code };
}

const publicExchange = (clientId: string, code: string, extra: Record<string, string> = {}) =>
  postToken({ grant_type: "authorization_code", code, redirect_uri: loopback, code_verifier: verifier, client_id: clientId, ...extra });

async function mcpStatus(key: string) {
  const response = await mcp(
    new Request(mcpResource, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    }),
    { params: Promise.resolve({}) },
  );
  return { status: response.status, challenge: response.headers.get("www-authenticate"), body: await response.text() };
}

describe("POST /oauth/register (RFC 7591)", () => {
  it("registers a public client, keeping only the authorization code grant", async () => {
    const res = await register({
      client_name: "Claude Code",
      client_uri: "https://claude.ai",
      redirect_uris: [loopback, loopback],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      logo_uri: "https://example.com/logo.png",
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.json).toEqual({
      client_id: expect.stringMatching(/^svcc_/),
      client_id_issued_at: expect.any(Number),
      client_name: "Claude Code",
      client_uri: "https://claude.ai",
      redirect_uris: [loopback],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code"],
      response_types: ["code"],
    });
  });

  it("names a client without client_name after its redirect host, and defaults to a public client", async () => {
    const res = await register({ redirect_uris: ["https://agent.example.com/cb"] });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ client_name: "agent.example.com", token_endpoint_auth_method: "none" });
  });

  it("refuses confidential clients, other grants, bad names and bad redirect addresses with RFC 7591 errors", async () => {
    const refusals: [Record<string, unknown>, string, string?][] = [
      [{ redirect_uris: [loopback], token_endpoint_auth_method: "client_secret_basic" }, "invalid_client_metadata", "auth_method"],
      [{ redirect_uris: [loopback], grant_types: ["client_credentials"] }, "invalid_client_metadata", "grant_types"],
      [{ redirect_uris: [loopback], response_types: ["token"] }, "invalid_client_metadata", "response_types"],
      [{ redirect_uris: [loopback], client_name: "Listings\u202EIPA" }, "invalid_client_metadata", "client_name"],
      [{ redirect_uris: [loopback], client_uri: "http://claude.ai" }, "invalid_client_metadata", "client_uri"],
      [{ redirect_uris: [] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["http://evil.example.com/cb"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://agent.example.com/cb#x"] }, "invalid_redirect_uri"],
      [{}, "invalid_redirect_uri"],
    ];
    for (const [body, error, reason] of refusals) {
      const res = await register(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json, JSON.stringify(body)).toMatchObject({ error, ...(reason ? { reason } : {}) });
      expect(res.json!.error_description).toEqual(expect.any(String));
    }
  });
});

describe("a public client's authorization code flow", () => {
  it("shows the consent page that the app registered itself, and exchanges its code with PKCE and no secret", async () => {
    const client = await publicClient({ client_uri: "https://agent.example.com" });
    const account = await freshAccount();
    const { check, code } = await consent(account, client.client_id);
    expect(check.client).toEqual({
      id: client.client_id,
      name: "Agent CLI",
      selfRegistered: true,
      clientUri: "https://agent.example.com",
      documentHost: null,
    });

    const res = await publicExchange(client.client_id, code);
    expect(res.status).toBe(200);
    createdKeys.push(res.json!.access_token as string);
    expect(res.json).toMatchObject({ token_type: "Bearer", scope: "listings:read listings:write" });
    expect((await call(ping, { path: "/ping", key: res.json!.access_token as string })).status).toBe(200);

    // The same app revokes its key without a secret too.
    expect((await postRevoke({ token: res.json!.access_token as string, client_id: client.client_id })).status).toBe(200);
    expect((await call(ping, { path: "/ping", key: res.json!.access_token as string })).status).toBe(401);
  });

  it("refuses a public client that sends a secret, and a confidential client that sends none", async () => {
    const client = await publicClient();
    const account = await freshAccount();
    const { code } = await consent(account, client.client_id);
    const withSecret = await publicExchange(client.client_id, code, { client_secret: "svcs_guess" });
    expect(withSecret.status).toBe(401);
    expect(withSecret.json).toMatchObject({ error: "invalid_client", reason: "public_client_secret" });
    const byBasic = await postToken(
      { grant_type: "authorization_code", code, redirect_uri: loopback, code_verifier: verifier },
      { authorization: basic(client.client_id, "svcs_guess") },
    );
    expect(byBasic.status).toBe(401);

    const confidential = await freshClient([loopback]);
    const { code: confidentialCode } = await consent(account, confidential.client_id);
    const noSecret = await publicExchange(confidential.client_id, confidentialCode);
    expect(noSecret.status).toBe(401);
    expect(noSecret.json).toMatchObject({ error: "invalid_client", reason: "no_client_authentication" });
  });
});

describe("RFC 8707 resource indicators", () => {
  it("refuses at the consent request a resource this server does not serve, back at the app", async () => {
    const client = await publicClient();
    const account = await freshAccount();
    const check = await checkAuthorizeRequest({
      ctx: account.ctx,
      input: authorizeQuery(client.client_id, { redirect_uri: loopback, resource: "https://other.example.com/mcp" }),
    });
    expect(check.kind).toBe("redirect_error");
    if (check.kind !== "redirect_error") return;
    const redirect = new URL(check.redirectTo);
    expect(redirect.searchParams.get("error")).toBe("invalid_target");
    expect(redirect.searchParams.get("state")).toBe("xyz-state");
  });

  it("refuses at the token endpoint a resource other than the consent's", async () => {
    const client = await publicClient();
    const account = await freshAccount();
    const { code } = await consent(account, client.client_id, { resource: mcpResource });
    const res = await publicExchange(client.client_id, code, { resource: apiResource });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: "invalid_target", reason: "resource_mismatch" });
  });

  it("binds a key to the MCP endpoint: accepted there, refused by the REST API", async () => {
    const client = await publicClient();
    const account = await freshAccount();
    const { check, code } = await consent(account, client.client_id, { resource: mcpResource });
    expect(check.resource).toBe(mcpResource);
    const res = await publicExchange(client.client_id, code, { resource: mcpResource });
    expect(res.status).toBe(200);
    const key = res.json!.access_token as string;
    createdKeys.push(key);
    expect((await mcpStatus(key)).status).toBe(200);
    const rest = await call(ping, { path: "/ping", key });
    expect(rest.status).toBe(401);
    expect(rest.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expect(rest.json).toMatchObject({ code: "unauthenticated", reason: "other_resource" });
    expect(rest.json!.detail).toContain(mcpResource);
  });

  it("binds a key to the REST API: refused by the MCP endpoint with invalid_token and the resource metadata", async () => {
    const client = await publicClient();
    const account = await freshAccount();
    const { code } = await consent(account, client.client_id, { resource: apiResource });
    const res = await publicExchange(client.client_id, code);
    expect(res.status).toBe(200);
    const key = res.json!.access_token as string;
    createdKeys.push(key);
    expect((await call(ping, { path: "/ping", key })).status).toBe(200);
    const refused = await mcpStatus(key);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toBe(
      'Bearer error="invalid_token", resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/api/mcp"',
    );
  });

  it("keeps a key granted without resource usable at both, as integrator apps' keys were", async () => {
    const client = await publicClient();
    const account = await freshAccount();
    const { code } = await consent(account, client.client_id);
    const res = await publicExchange(client.client_id, code);
    const key = res.json!.access_token as string;
    createdKeys.push(key);
    expect((await call(ping, { path: "/ping", key })).status).toBe(200);
    expect((await mcpStatus(key)).status).toBe(200);
  });
});

// The S256 challenge of the shared verifier, as every consent here asks.
expect(challenge).toHaveLength(43);
