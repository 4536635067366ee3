import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { GET as protectedResourceMetadata } from "@/app/.well-known/oauth-protected-resource/api/mcp/route";
import { POST as mcp } from "@/app/api/mcp/route";
import { config } from "@/lib/base/config";
import type { Permission } from "@/lib/domain/keys/format";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { loggedRow } from "../support/api-log-rows";
import { accountWithKey } from "../support/fixtures";
import { consentCode, exchange, freshAccount, freshClient } from "../oauth/support";

const endpoint = new URL("/api/mcp", config().APP_URL);

/** The endpoint answered in this process, as Next.js would call its route handler. */
async function inProcess(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const { pathname } = new URL(request.url);
  if (pathname === "/api/mcp" && request.method === "POST") return mcp(request, { params: Promise.resolve({}) });
  if (pathname === "/.well-known/oauth-protected-resource/api/mcp") return protectedResourceMetadata();
  return new Response(null, { status: 404 });
}

/** The official client SDK connected with `key`; `seen` keeps every answer's request id for the API log. */
async function connect(key: string, options: { language?: string; modern?: boolean } = {}) {
  const seen: string[] = [];
  const sent: { method?: string; params?: { protocolVersion?: string } }[] = [];
  const transport = new StreamableHTTPClientTransport(endpoint, {
    fetch: async (input, init) => {
      if (typeof init?.body === "string") sent.push(JSON.parse(init.body));
      const response = await inProcess(input, init);
      seen.push(response.headers.get("x-request-id") ?? "");
      return response;
    },
    requestInit: { headers: { authorization: `Bearer ${key}`, ...(options.language ? { "accept-language": options.language } : {}) } },
  });
  // By default the client opens with the 2025 handshake (`initialize`); pinned, it speaks 2026-07-28 (`server/discover`).
  const client = new Client(
    { name: "listings-tests", version: "1.0.0" },
    options.modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(transport);
  return { client, seen, sent };
}

async function connected(permissions?: Permission[]) {
  const { key, keyId, account } = await accountWithKey(permissions ? { permissions } : {});
  return { ...(await connect(key)), key, keyId, account };
}

type Structured = Record<string, unknown> & { data?: Record<string, unknown> };

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, structured: result.structuredContent as Structured, content: result.content };
}

describe("POST /api/mcp", () => {
  it("lists its ten tools with their annotations and argument schemas, described in the caller's language", async () => {
    const { key } = await accountWithKey();
    const { client } = await connect(key, { language: "en" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "get_schema",
      "validate_listing",
      "upsert_listing_by_ref",
      "get_listing",
      "list_listings",
      "change_listing_state",
      "set_photos",
      "list_events",
      "get_import",
      "search_docs",
    ]);
    const upsert = tools.find((tool) => tool.name === "upsert_listing_by_ref")!;
    expect(upsert.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(upsert.inputSchema.properties).toHaveProperty("external_ref");
    expect((upsert.inputSchema.properties as Record<string, { properties?: object }>).listing.properties).toHaveProperty("title");
    expect(upsert.description).toMatch(/merge patch/);
    expect(tools.find((tool) => tool.name === "get_listing")!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((tool) => tool.name === "set_photos")!.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.some((tool) => /delete/.test(tool.name))).toBe(false);

    const { client: romanian } = await connect(key, { language: "ro" });
    const described = await romanian.listTools();
    expect(described.tools.find((tool) => tool.name === "upsert_listing_by_ref")!.description).toMatch(/Creează anunțul/);
    expect(romanian.getInstructions()).toMatch(/nu urmați niciodată instrucțiuni/);
  });

  it("upserts one listing twice: created, then unchanged, one listing", async () => {
    const { client } = await connected();
    const first = await call(client, "upsert_listing_by_ref", { external_ref: "mcp-1", listing: exampleApartment });
    expect(first.isError).toBe(false);
    expect(first.structured.data).toMatchObject({ external_ref: "mcp-1", status: "pending", title: exampleApartment.title });
    expect(first.structured.warnings).toEqual([]);
    expect(first.structured).not.toHaveProperty("unchanged");
    expect(JSON.parse((first.content as { text: string }[])[0].text)).toEqual(first.structured);

    const second = await call(client, "upsert_listing_by_ref", { external_ref: "mcp-1", listing: exampleApartment });
    expect(second.isError).toBe(false);
    expect(second.structured.unchanged).toBe(true);
    expect(second.structured.data!.code).toBe(first.structured.data!.code);

    const listed = await call(client, "list_listings", { fields: "code,external_ref" });
    expect(listed.structured.data).toEqual([{ code: first.structured.data!.code, external_ref: "mcp-1" }]);
  });

  it("refuses a write to a read-only key with missing_ability, as a tool result, and writes nothing", async () => {
    const { client } = await connected(["listings:read"]);
    const refused = await call(client, "upsert_listing_by_ref", { external_ref: "mcp-ro", listing: exampleApartment });
    expect(refused.isError).toBe(true);
    expect(refused.structured).toMatchObject({ status: 403, code: "missing_ability" });
    const listed = await call(client, "list_listings", {});
    expect(listed.isError).toBe(false);
    expect(listed.structured.data).toEqual([]);
  });

  it("refuses an invalid listing with the API's problem document and its pointers", async () => {
    const { client } = await connected();
    const refused = await call(client, "upsert_listing_by_ref", {
      external_ref: "mcp-bad",
      listing: { ...exampleApartment, title: "Short", rooms: -2 },
    });
    expect(refused.isError).toBe(true);
    expect(refused.structured).toMatchObject({ status: 422 });
    const pointers = (refused.structured.errors as { pointer: string; code: string }[]).map((error) => error.pointer);
    expect(pointers).toEqual(expect.arrayContaining(["/title", "/rooms"]));
    const validated = await call(client, "validate_listing", { listing: { ...exampleApartment, title: "Short" } });
    expect(validated.isError).toBe(true);
    expect((validated.structured.errors as { pointer: string }[])[0].pointer).toBe("/title");
    const badRef = await call(client, "upsert_listing_by_ref", { external_ref: "no spaces", listing: exampleApartment });
    expect(badRef.structured).toMatchObject({ status: 422, errors: [expect.objectContaining({ pointer: "/ref", in: "path" })] });
    expect((await call(client, "list_listings")).structured.data).toEqual([]);
  });

  it("answers each tool as the API would", async () => {
    const { client } = await connected();
    const schema = await call(client, "get_schema");
    expect(schema.structured).toHaveProperty("currencies");
    expect((await call(client, "validate_listing", { listing: exampleApartment })).structured).toEqual({
      data: { valid: true },
      warnings: [],
    });

    const created = await call(client, "upsert_listing_by_ref", { external_ref: "mcp-each", listing: exampleApartment });
    const code = created.structured.data!.code as string;
    const read = await call(client, "get_listing", { code });
    expect(read.structured.data).toMatchObject({ code, external_ref: "mcp-each", moderation: expect.anything() });
    expect((await call(client, "get_listing", { code: "ZZZZZZZZ" })).structured).toMatchObject({ status: 404, code: "not_found" });

    const paused = await call(client, "change_listing_state", { code, action: "pause" });
    expect(paused.structured).toMatchObject({ status: 409, code: "listing_action_refused" });
    const wrongAction = await call(client, "change_listing_state", { code, action: "delete" });
    expect(wrongAction.structured).toMatchObject({ status: 422, errors: [expect.objectContaining({ pointer: "/action" })] });

    expect((await call(client, "set_photos", { code, photos: [] })).structured).toEqual({ queued: 0 });

    const events = await call(client, "list_events", { limit: 5 });
    expect(events.structured).toEqual({ data: expect.any(Array), meta: { next: null } });

    expect((await call(client, "get_import", { id: "imp_00000000000000000000000000" })).structured).toMatchObject({ code: "not_found" });

    const found = await call(client, "search_docs", { query: "webhook signature" });
    expect((found.structured.data as unknown as { url: string }[])[0].url).toMatch(/\/docs\/webhooks/);
    expect((await call(client, "search_docs", { query: "" })).isError).toBe(true);
  });

  it("keeps an API log row of each call, under the path of the MCP endpoint", async () => {
    const { client, seen, keyId, account } = await connected();
    await call(client, "validate_listing", { listing: exampleApartment });
    const row = await loggedRow(seen.at(-1)!);
    expect(row).toMatchObject({ method: "POST", path: "/api/mcp", status: 200, keyId, accountId: account.id });
    expect(row.requestBody).toMatchObject({ method: "tools/call", params: { name: "validate_listing" } });
    expect(row.responseBody).toMatchObject({ result: { structuredContent: { data: { valid: true } } } });
  });

  it("serves the 2026-07-28 revision, request by request", async () => {
    const { key } = await accountWithKey();
    const { client, sent } = await connect(key, { modern: true });
    expect(sent[0].method).toBe("server/discover");
    expect((await client.listTools()).tools).toHaveLength(10);
    const first = await call(client, "upsert_listing_by_ref", { external_ref: "mcp-modern", listing: exampleApartment });
    expect(first.structured.data).toMatchObject({ external_ref: "mcp-modern" });
    expect(
      (await call(client, "upsert_listing_by_ref", { external_ref: "mcp-modern", listing: exampleApartment })).structured.unchanged,
    ).toBe(true);
    const { key: readOnly } = await accountWithKey({ permissions: ["listings:read"] });
    const refused = await call((await connect(readOnly, { modern: true })).client, "set_photos", {
      code: first.structured.data!.code,
      photos: [],
    });
    expect(refused).toMatchObject({ isError: true, structured: { code: "missing_ability" } });
  });

  it("serves the 2025-06-18 revision: its initialize, then a tool call with its header", async () => {
    const { key } = await accountWithKey();
    const post = (body: object, headers: Record<string, string> = {}) =>
      inProcess(endpoint, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: "2.0", ...body }),
      });
    const initialized = await post({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "old-client", version: "1" } },
    });
    expect(initialized.status).toBe(200);
    expect(initialized.headers.get("mcp-session-id")).toBeNull();
    expect((await initialized.json()).result.protocolVersion).toBe("2025-06-18");
    const called = await post(
      { id: 2, method: "tools/call", params: { name: "validate_listing", arguments: { listing: exampleApartment } } },
      { "mcp-protocol-version": "2025-06-18" },
    );
    expect((await called.json()).result.structuredContent).toEqual({ data: { valid: true }, warnings: [] });
  });

  it("accepts an access token of our authorization server, with exactly the permissions of its grant", async () => {
    const client = await freshClient();
    const holder = await freshAccount();
    const token = await exchange(client, await consentCode(holder.id, client.client_id, { scope: ["listings:read"] }));
    const { client: agent } = await connect(token.access_token);
    expect((await call(agent, "list_listings")).structured).toMatchObject({ data: [] });
    const refused = await call(agent, "upsert_listing_by_ref", { external_ref: "mcp-oauth", listing: exampleApartment });
    expect(refused).toMatchObject({ isError: true, structured: { code: "missing_ability" } });
  });

  it("answers 401 naming its protected resource metadata, which names our authorization server", async () => {
    const missing = await inProcess(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(missing.status).toBe(401);
    const metadataUrl = `${config().APP_URL}/.well-known/oauth-protected-resource/api/mcp`;
    expect(missing.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const wrong = await inProcess(endpoint, { method: "POST", headers: { authorization: "Bearer key_x|svc_test_nope" }, body: "{}" });
    expect(wrong.headers.get("www-authenticate")).toBe(`Bearer error="invalid_token", resource_metadata="${metadataUrl}"`);

    const metadata = await (await inProcess(metadataUrl)).json();
    expect(metadata).toMatchObject({ resource: endpoint.href, authorization_servers: [config().APP_URL.replace(/\/+$/, "")] });
  });
});
