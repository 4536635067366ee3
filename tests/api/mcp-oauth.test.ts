import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthTokens,
} from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { GET as authorizationServerMetadata } from "@/app/.well-known/oauth-authorization-server/route";
import { GET as protectedResourceMetadata } from "@/app/.well-known/oauth-protected-resource/api/mcp/route";
import { OPTIONS as preflight, POST as mcp } from "@/app/api/mcp/route";
import { POST as register } from "@/app/api/v1/oauth/register/route";
import { POST as token } from "@/app/api/v1/oauth/token/route";
import { config } from "@/lib/base/config";
import { checkAuthorizeRequest } from "@/lib/domain/oauth/check-authorize-request";
import { grantConsent } from "@/lib/domain/oauth/grant-consent";
import { createdKeys } from "../support/fixtures";
import { freshAccount } from "../oauth/support";

const endpoint = new URL("/api/mcp", config().APP_URL);
const context = { params: Promise.resolve({}) };

/** The server answered in this process, as Next.js would route each path; `paths` records what the client asked for. */
function server(paths: string[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const { pathname } = new URL(request.url);
    paths.push(`${request.method} ${pathname}`);
    if (pathname === "/api/mcp" && request.method === "POST") return mcp(request, context);
    if (pathname === "/.well-known/oauth-protected-resource/api/mcp") return protectedResourceMetadata();
    if (pathname === "/.well-known/oauth-authorization-server") return authorizationServerMetadata();
    if (pathname === "/api/v1/oauth/register") return register(request, context);
    if (pathname === "/api/v1/oauth/token") return token(request, context);
    return new Response(null, { status: 404 });
  };
}

/** An agent's OAuth provider kept in memory: what a CLI agent would keep in its config file. */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  /** Set for an agent that publishes a client ID metadata document: its URL is then its client_id. */
  clientMetadataUrl?: string;
  verifier = "";
  authorizationUrl?: URL;
  readonly redirectUrl = "http://127.0.0.1:33418/callback";
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "Test agent",
    redirect_uris: ["http://127.0.0.1:33418/callback"],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    scope: "listings:read listings:write",
  };
  state = () => "agent-state";
  clientInformation = () => this.client;
  saveClientInformation = (client: OAuthClientInformationMixed) => {
    this.client = client;
  };
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => {
    this.saved = tokens;
  };
  redirectToAuthorization = (url: URL) => {
    this.authorizationUrl = url;
  };
  saveCodeVerifier = (verifier: string) => {
    this.verifier = verifier;
  };
  codeVerifier = () => this.verifier;
}

describe("an MCP client that knows only the endpoint's URL", () => {
  it("is refused, discovers the server, registers itself, gets consent, exchanges the code and lists the tools", async () => {
    const paths: string[] = [];
    const fetch = server(paths);
    const provider = new MemoryProvider();
    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider, fetch });
    await expect(new Client({ name: "agent", version: "1.0.0" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(paths).toEqual(
      expect.arrayContaining([
        "POST /api/mcp",
        "GET /.well-known/oauth-protected-resource/api/mcp",
        "GET /.well-known/oauth-authorization-server",
        "POST /api/v1/oauth/register",
      ]),
    );
    expect(provider.client?.client_id).toMatch(/^svcc_/);

    // The browser opens the consent page; the account holder, signed in, presses Allow.
    const url = provider.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${config().APP_URL.replace(/\/+$/, "")}/oauth/authorize`);
    expect(url.searchParams.get("resource")).toBe(endpoint.href);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    const account = await freshAccount();
    const request = await checkAuthorizeRequest({ ctx: account.ctx, input: Object.fromEntries(url.searchParams) });
    if (request.kind !== "ok") throw new Error(`consent request refused: ${JSON.stringify(request)}`);
    expect(request.client).toMatchObject({ name: "Test agent", selfRegistered: true });
    expect(request.resource).toBe(endpoint.href);
    const consent = await grantConsent({ ctx: account.ctx, input: request });
    if (consent.kind !== "redirect") throw new Error(`consent refused: ${JSON.stringify(consent)}`);

    // Back at the agent's loopback listener: the code is exchanged without a secret.
    const callback = new URL(consent.redirectTo);
    expect(callback.searchParams.get("state")).toBe("agent-state");
    await first.finishAuth(callback.searchParams);
    expect(paths).toContain("POST /api/v1/oauth/token");
    createdKeys.push(provider.saved!.access_token);

    const client = new Client({ name: "agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider, fetch }));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("upsert_listing_by_ref");
    expect(tools.length).toBeLessThanOrEqual(12);
    const listed = await client.callTool({ name: "list_listings", arguments: {} });
    expect(listed.isError).not.toBe(true);
    await client.close();
  });
});

describe("an MCP client that publishes a client ID metadata document", () => {
  it("sees client_id_metadata_document_supported, skips registration and sends its document's URL as client_id", async () => {
    const paths: string[] = [];
    const provider = new MemoryProvider();
    const documentUrl = "https://agent.example.com/oauth/client.json";
    provider.clientMetadataUrl = documentUrl;
    const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: provider, fetch: server(paths) });
    await expect(new Client({ name: "agent", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(paths).toContain("GET /.well-known/oauth-authorization-server");
    expect(paths).not.toContain("POST /api/v1/oauth/register");
    expect(provider.client?.client_id).toBe(documentUrl);
    // The consent page fetches that document (tests/oauth/metadata-documents.test.ts); here only the client's side is shown.
    expect(provider.authorizationUrl?.searchParams.get("client_id")).toBe(documentUrl);
  });
});

describe("CORS on /api/mcp", () => {
  it("answers the preflight of a browser-based client with the headers it sends", async () => {
    const response = await preflight(
      new Request(endpoint, {
        method: "OPTIONS",
        headers: {
          origin: "https://inspector.example.com",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type, mcp-protocol-version, mcp-session-id",
        },
      }),
      context,
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("POST");
    const allowedHeaders = response.headers.get("access-control-allow-headers")!.split(/,\s*/);
    expect(allowedHeaders).toEqual(expect.arrayContaining(["authorization", "content-type", "mcp-protocol-version", "mcp-session-id"]));
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });

  it("lets a browser read the 401's challenge, so it finds the authorization server", async () => {
    const response = await mcp(
      new Request(endpoint, {
        method: "POST",
        headers: { origin: "https://inspector.example.com", "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      }),
      context,
    );
    expect(response.status).toBe(401);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toMatch(/WWW-Authenticate/);
    expect(response.headers.get("www-authenticate")).toMatch(/resource_metadata=/);
  });
});
