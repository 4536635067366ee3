import { publicEndpoint, type RouteHandler } from "@/lib/adapters/http/endpoint";
import { noContent } from "@/lib/adapters/http/respond";
import { rateRules } from "@/lib/infra/rate-limit";

/**
 * Browser-based MCP clients (an inspector, an agent in a web page) call `/api/mcp` from another
 * origin. The credential is a Bearer header, never a cookie, so any origin may call: a page gains
 * nothing it could not do with the token from anywhere else. The challenge and the request id are
 * exposed so such a client can find the authorization server and quote the request.
 */
const allowed = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, X-Request-Id, Retry-After",
};

const preflight = {
  ...allowed,
  "Access-Control-Allow-Methods": "POST",
  "Access-Control-Allow-Headers": "authorization, content-type, mcp-protocol-version, mcp-session-id, accept-language",
  "Access-Control-Max-Age": "86400",
};

/** Every answer of the handler (401s and problems included) with the CORS headers. */
export function withCors<P>(handler: RouteHandler<P>): RouteHandler<P> {
  return async (request, context) => {
    const response = await handler(request, context);
    for (const [name, value] of Object.entries(allowed)) response.headers.set(name, value);
    return response;
  };
}

/** `OPTIONS /api/mcp`: the preflight, through the pipeline (request id, per-address limit) like the API's `OPTIONS`. */
export const corsPreflight = publicEndpoint(rateRules.ip, async () => noContent({ Allow: "POST", ...preflight }));
