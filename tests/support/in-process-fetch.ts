import { GET as authorizationServerMetadata } from "@/app/.well-known/oauth-authorization-server/route";
import { routes } from "@/app/api/v1/routes";
import { GET as sandboxSamplePhoto } from "@/app/sandbox/sample-photo.jpg/route";
import type { RouteDeclaration } from "@/lib/adapters/http/route";
import { routeModuleOf } from "./documented";

const base = "/api/v1";

/** A declared path as a pattern: `/listings/{code}` → `^/listings/(?<code>[^/]+)$`. */
const patternOf = (route: RouteDeclaration) => new RegExp(`^${route.path.replace(/\{(\w+)\}/g, "(?<$1>[^/]+)")}$`);

/**
 * `fetch` for a generated client (openapi-fetch) that answers in this process: the request goes to
 * the route file of the declaration its method and path match, with the decoded path parameters
 * Next.js would pass. A path no declaration matches is a 404, as the catch-all route answers. The
 * OAuth metadata (RFC 8414), outside `/api/v1`, is answered too: a client discovers the endpoints there;
 * so is the sandbox's sample photo, which the quickstart downloads.
 */
export async function inProcessFetch(request: Request): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  if (pathname === "/.well-known/oauth-authorization-server" && request.method === "GET") return authorizationServerMetadata();
  if (pathname === "/sandbox/sample-photo.jpg" && request.method === "GET") return sandboxSamplePhoto();
  const relative = pathname.startsWith(base) ? pathname.slice(base.length) : pathname;
  // As Next.js routes: a static segment before a dynamic one (`/listings/imports` is not `/listings/{code}`).
  const candidates = routes
    .filter((route) => route.method === request.method)
    .map((route) => ({ route, match: patternOf(route).exec(relative) }))
    .filter((found) => found.match !== null)
    .sort((a, b) => Object.keys(a.match!.groups ?? {}).length - Object.keys(b.match!.groups ?? {}).length);
  for (const { route, match } of candidates) {
    if (!match) continue;
    const params = Object.fromEntries(Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value)]));
    const handlers = await routeModuleOf(route.path);
    return handlers[route.method](request, { params: Promise.resolve(params) });
  }
  return new Response(null, { status: 404 });
}
