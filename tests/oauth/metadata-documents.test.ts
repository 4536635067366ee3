import type { ServerResponse } from "node:http";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { database } from "@/db";
import { oauthClients } from "@/db/schema";
import { POST as mcp } from "@/app/api/mcp/route";
import { accountContext } from "@/lib/base/context";
import { checkAuthorizeRequest, type AuthorizeCheck } from "@/lib/domain/oauth/check-authorize-request";
import { grantConsent } from "@/lib/domain/oauth/grant-consent";
import { metadataCacheSeconds, metadataDocumentMaxBytes, metadataLifetime } from "@/lib/domain/oauth/internal/metadata-document";
import { createdKeys } from "../support/fixtures";
import { startHttpServer, type LocalServer } from "../support/local-http-server";
import { authorizeQuery, freshAccount, postToken, verifier } from "./support";
import { useEnv } from "../support/env";

const loopback = "http://127.0.0.1:33418/callback";
const mcpResource = "http://localhost:3000/api/mcp";

/** What the app's server answers at its document's address: a status, headers and a body. */
type Answer = { status?: number; headers?: Record<string, string>; body: string };

const servers: LocalServer[] = [];

/** A client's own web server on loopback, serving `answer(url)` at `/oauth/client.json`; its URL is the client_id. */
async function documentServer(answer: (clientId: string) => Answer) {
  let clientId = "";
  const server = await startHttpServer((request, res: ServerResponse) => {
    const { status = 200, headers = { "content-type": "application/json" }, body } = answer(clientId);
    res.writeHead(request.url === "/oauth/client.json" ? status : 404, headers);
    res.end(body);
  });
  servers.push(server);
  clientId = `${server.origin}/oauth/client.json`;
  return { server, clientId };
}

const document = (clientId: string, more: Record<string, unknown> = {}) =>
  JSON.stringify({
    client_id: clientId,
    client_name: "Agent Desktop",
    client_uri: "https://agent.example.com",
    logo_uri: "https://agent.example.com/logo.png",
    redirect_uris: [loopback],
    grant_types: ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...more,
  });

const json = (body: string, headers: Record<string, string> = {}): Answer => ({
  body,
  headers: { "content-type": "application/json", ...headers },
});

async function check(accountId: string, clientId: string, options: { now?: Date; locale?: "en" | "ro"; redirect?: string } = {}) {
  const ctx = accountContext(await database(), { accountId, agency: null }, { now: options.now, locale: options.locale ?? "en" });
  return checkAuthorizeRequest({
    ctx,
    input: authorizeQuery(clientId, { redirect_uri: options.redirect ?? loopback, resource: mcpResource }),
  });
}

/** The page's refusal: shown on our page, never redirected (the redirect address is not trusted yet). */
function refusal(result: AuthorizeCheck) {
  if (result.kind !== "invalid_client_or_redirect") throw new Error(`expected a refusal shown on the page: ${JSON.stringify(result)}`);
  return result;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("client ID metadata documents, with UNSAFE_ALLOW_LOCAL_URLS=1 (the document on a loopback server)", () => {
  useEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });

  it("fetches the document, shows its name and host, and its URL works as client_id through consent, token and /api/mcp", async () => {
    const { server, clientId } = await documentServer((id) => json(document(id), { "cache-control": "max-age=600" }));
    const account = await freshAccount();
    const result = await check(account.id, clientId);
    if (result.kind !== "ok") throw new Error(`consent request refused: ${JSON.stringify(result)}`);
    expect(result.client).toEqual({
      id: clientId,
      name: "Agent Desktop",
      selfRegistered: true,
      clientUri: "https://agent.example.com",
      documentHost: new URL(clientId).host,
    });
    expect(server.received).toHaveLength(1);
    expect(server.received[0].headers.accept).toBe("application/json");

    const granted = await grantConsent({ ctx: account.ctx, input: result });
    if (granted.kind !== "redirect") throw new Error(`consent refused: ${JSON.stringify(granted)}`);
    // Allow checked the request again from the kept copy: the document was fetched once.
    expect(server.received).toHaveLength(1);

    const token = await postToken({
      grant_type: "authorization_code",
      code: granted.code,
      redirect_uri: loopback,
      code_verifier: verifier,
      client_id: clientId,
    });
    expect(token.status).toBe(200);
    const key = token.json!.access_token as string;
    createdKeys.push(key);
    const ping = await mcp(
      new Request(mcpResource, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(ping.status).toBe(200);
  });

  it("uses the kept copy while its cache headers allow, then fetches it again and takes the change", async () => {
    let name = "First name";
    const { server, clientId } = await documentServer((id) =>
      json(document(id, { client_name: name }), { "cache-control": "max-age=120" }),
    );
    const account = await freshAccount();
    const now = new Date();
    expect(await check(account.id, clientId, { now })).toMatchObject({ kind: "ok", client: { name: "First name" } });
    name = "Second name";
    expect(await check(account.id, clientId, { now: new Date(now.getTime() + 119_000) })).toMatchObject({ client: { name: "First name" } });
    expect(server.received).toHaveLength(1);
    expect(await check(account.id, clientId, { now: new Date(now.getTime() + 121_000) })).toMatchObject({
      client: { name: "Second name" },
    });
    expect(server.received).toHaveLength(2);
  });

  it("never keeps a failed fetch: a document that answered 500 is fetched again on the next request", async () => {
    let status = 500;
    const { server, clientId } = await documentServer((id) => ({ status, body: document(id) }));
    const account = await freshAccount();
    expect(refusal(await check(account.id, clientId)).detail).toBe(
      `The client ID metadata document at ${clientId} answered HTTP 500; it must answer 200 itself (redirects are not followed).`,
    );
    const [kept] = await (await database()).connection.select().from(oauthClients).where(eq(oauthClients.id, clientId));
    expect(kept).toBeUndefined();
    status = 200;
    expect(await check(account.id, clientId)).toMatchObject({ kind: "ok" });
    expect(server.received).toHaveLength(2);
  });

  it("refuses a document that names another client_id", async () => {
    const { clientId } = await documentServer(() => json(document("https://agent.example.com/oauth/client.json")));
    const account = await freshAccount();
    const result = refusal(await check(account.id, clientId));
    expect(result.reason).toBe("client_metadata_document");
    expect(result.detail).toBe(`The client ID metadata document at ${clientId} must name exactly its own address as client_id.`);
  });

  it("says why in the request's language", async () => {
    const { clientId } = await documentServer(() => json(document("https://agent.example.com/oauth/client.json")));
    const account = await freshAccount();
    expect(refusal(await check(account.id, clientId, { locale: "ro" })).detail).toBe(
      `Documentul de metadate al aplicației de la ${clientId} trebuie să aibă drept client_id exact propria adresă.`,
    );
  });

  it("binds the request to the document's redirect_uris: another address is refused on the page", async () => {
    const { clientId } = await documentServer((id) => json(document(id)));
    const account = await freshAccount();
    const result = refusal(await check(account.id, clientId, { redirect: "https://attacker.example.net/callback" }));
    expect(result.reason).toBe("unregistered_redirect_uri");
  });

  it("refuses a document over 5 KB, whether its length is declared or not", async () => {
    const padding = "x".repeat(metadataDocumentMaxBytes);
    const { clientId } = await documentServer((id) => json(document(id, { padding })));
    const account = await freshAccount();
    expect(refusal(await check(account.id, clientId)).detail).toBe(
      `The client ID metadata document at ${clientId} is larger than 5120 bytes.`,
    );
  });

  it("refuses an answer that is not a JSON object", async () => {
    for (const body of ["<html>Agent</html>", "[1, 2]", '"client"']) {
      const { clientId } = await documentServer(() => ({ body, headers: { "content-type": "text/html" } }));
      const account = await freshAccount();
      expect(refusal(await check(account.id, clientId)).detail).toBe(
        `The client ID metadata document at ${clientId} is not a JSON object.`,
      );
    }
  });

  it("does not follow a redirect (the draft forbids it)", async () => {
    const target = await documentServer((id) => json(document(id)));
    const { clientId } = await documentServer(() => ({ status: 302, headers: { location: target.clientId }, body: "" }));
    const account = await freshAccount();
    expect(refusal(await check(account.id, clientId)).detail).toContain("answered HTTP 302");
    expect(target.server.received).toHaveLength(0);
  });

  it("refuses documents that claim a secret or a shared-secret method, and names that could pass for another", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ client_secret: "s3cret" }, "contains a client_secret"],
      [{ token_endpoint_auth_method: "client_secret_basic" }, "token_endpoint_auth_method other than none"],
      [{ grant_types: ["client_credentials"] }, "grant_types"],
      [{ client_name: "Claude\u202Eedoc" }, "client_name of 1 to 100 characters"],
      [{ client_name: undefined }, "client_name of 1 to 100 characters"],
      [{ redirect_uris: ["http://agent.example.com/callback"] }, "redirect_uris"],
    ];
    for (const [change, expected] of cases) {
      const { clientId } = await documentServer((id) => json(document(id, change)));
      const account = await freshAccount();
      expect(refusal(await check(account.id, clientId)).detail).toContain(expected);
    }
  });

  it("keeps a hostile name as the text it is (the page renders it as text)", async () => {
    const hostile = `<img src=x onerror="alert(1)"> & Co`;
    const { clientId } = await documentServer((id) => json(document(id, { client_name: hostile })));
    const account = await freshAccount();
    expect(await check(account.id, clientId)).toMatchObject({ kind: "ok", client: { name: hostile } });
  });

  it("refuses client_id URLs the draft rules out, without fetching anything", async () => {
    const { server, clientId } = await documentServer((id) => json(document(id)));
    const account = await freshAccount();
    const origin = new URL(clientId).origin;
    for (const bad of [
      `${origin}/`,
      `${origin}/a/../oauth/client.json`,
      `${origin}/oauth/client.json#x`,
      clientId.replace("//", "//user:pw@"),
    ]) {
      const result = refusal(await check(account.id, bad));
      expect(result.detail).toContain("must be the https:// address of the app's client ID metadata document");
    }
    expect(server.received).toHaveLength(0);
  });

  it("answers the token endpoint's invalid_client for a URL no consent page has seen", async () => {
    const res = await postToken({
      grant_type: "authorization_code",
      code: "unknown-code",
      redirect_uri: loopback,
      code_verifier: verifier,
      client_id: "https://never-seen.example.com/client.json",
    });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: "invalid_client" });
  });
});

describe("client ID metadata documents without UNSAFE_ALLOW_LOCAL_URLS (as in production)", () => {
  it("refuses a document on a private or loopback address before any request reaches it", async () => {
    const { server, clientId } = await documentServer((id) => json(document(id)));
    const account = await freshAccount();
    const https = clientId.replace("http://", "https://");
    expect(refusal(await check(account.id, https)).detail).toBe(
      `The client ID metadata document at ${https} is on an address this server does not fetch from: only https:// addresses on the public internet.`,
    );
    // Plain http is not a document URL at all in production.
    expect(refusal(await check(account.id, clientId)).detail).toContain("must be the https:// address");
    expect(server.received).toHaveLength(0);
  });
});

describe("how long a document is kept (its cache headers, within bounds)", () => {
  const now = new Date("2026-11-29T12:00:00Z");
  it("reads max-age, no-store and Expires, and clamps them", () => {
    expect(metadataLifetime({ "cache-control": "public, max-age=600" }, now)).toBe(600);
    expect(metadataLifetime({ "cache-control": "max-age=5" }, now)).toBe(metadataCacheSeconds.min);
    expect(metadataLifetime({ "cache-control": "max-age=31536000" }, now)).toBe(metadataCacheSeconds.max);
    expect(metadataLifetime({ "cache-control": "no-store" }, now)).toBe(metadataCacheSeconds.min);
    expect(metadataLifetime({ expires: "Sun, 29 Nov 2026 14:00:00 GMT", date: "Sun, 29 Nov 2026 12:00:00 GMT" }, now)).toBe(7200);
    expect(metadataLifetime({ expires: "0" }, now)).toBe(metadataCacheSeconds.min);
    expect(metadataLifetime({}, now)).toBe(metadataCacheSeconds.unspecified);
  });
});
