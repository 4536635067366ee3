import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
} from "@modelcontextprotocol/server";
import { keyedEndpoint, type KeyedRequest, type RouteHandler } from "@/lib/adapters/http/endpoint";
import { json } from "@/lib/adapters/http/respond";
import { catalogue } from "@/lib/base/i18n";
import { logger } from "@/lib/base/logger";
import { mcpPath, mcpResource, mcpResourceMetadataUrl } from "./protected-resource";
import { advertisedSchema, runTool, type McpTool } from "./tools";

/** What the endpoint hands the SDK for each request: the admitted caller, read back by the server factory. */
interface Admitted extends AuthInfo {
  extra: { req: KeyedRequest<unknown> };
}

/** One server per request (stateless): the tools in the caller's language, acting with the caller's key. */
function mcpServer(tools: readonly McpTool[], req: KeyedRequest<unknown>): McpServer {
  const text = catalogue(req.locale).mcp;
  const server = new McpServer({ name: "listings-api", title: text.title, version: "1.0.0" }, { instructions: text.instructions });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: text.tools[tool.name].title,
        description: text.tools[tool.name].description,
        inputSchema: advertisedSchema(tool.input),
        annotations: { ...tool.annotations, openWorldHint: false },
      },
      (args) => runTool(tool, args, req),
    );
  }
  return server;
}

/**
 * `POST /api/mcp`: the Streamable HTTP transport, stateless (any instance answers any request),
 * behind the API's own pipeline: the key or OAuth token, the same rate limit, and the API log row,
 * whose path (`/api/mcp`) tells it came through MCP and whose bodies are the JSON-RPC message and
 * its answer. A 401 names the RFC 9728 document, where a client finds our authorization server; an
 * OAuth key granted for another resource (RFC 8707) is such a 401.
 */
export function mcpEndpoint(tools: readonly McpTool[]): RouteHandler<Record<string, never>> {
  const modern = createMcpHandler(({ authInfo }) => mcpServer(tools, (authInfo as Admitted).extra.req), {
    legacy: "reject",
    // One JSON answer per request: nothing here streams (a tool's answer is the API's, whole).
    responseMode: "json",
    onerror: (error) => logger.warn("mcp request refused", { error }),
  });
  return keyedEndpoint(
    null,
    async (req) => {
      const message = await req.body(["application/json"]);
      const admitted: Admitted = {
        // The key's id, not its secret: the SDK passes this through to the factory and keeps nothing.
        token: req.principal.key.id,
        clientId: req.principal.key.id,
        scopes: req.principal.key.permissions,
        extra: { req },
      };
      const options = { parsedBody: message, authInfo: admitted };
      const answer = (await isLegacyRequest(req.request, message))
        ? await legacy(mcpServer(tools, req), req.request, options)
        : await modern.fetch(req.request, options);
      return loggable(answer);
    },
    mcpPath,
    { resourceMetadata: mcpResourceMetadataUrl, resource: mcpResource },
  );
}

/**
 * The 2025 revisions (2025-06-18, 2025-11-25: `initialize`, then one message a POST), served
 * stateless by the SDK's own transport without a session id, answering JSON rather than the SDK's
 * default one-event stream, as the modern revision's answers are.
 */
async function legacy(server: McpServer, request: Request, options: { parsedBody: unknown; authInfo: AuthInfo }): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, options);
  } finally {
    await server.close();
  }
}

/** The SDK's JSON answer made again by `json`, so that the API log keeps its body like any other answer's. */
async function loggable(response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.includes("application/json")) return response;
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return json(text ? JSON.parse(text) : null, { status: response.status, headers });
}
