import { AppError } from "@/lib/base/errors";
import { publicEndpoint, type RouteHandler } from "./endpoint";
import { rateRules } from "@/lib/infra/rate-limit";
import { noContent } from "./respond";
import { declarationOf, httpMethods, type HttpMethod } from "./route";

export { httpMethods };

/** The handlers a route file exports: every method an operation can have, and `OPTIONS`. */
export type RouteMethods<P> = Record<HttpMethod | "OPTIONS", RouteHandler<P>>;

/**
 * Every method of a path from its declared handlers (each handler's method is its declaration's):
 * the implemented ones, and for the others a 405 problem with `Allow` that still carries the request
 * id and goes through the pipeline (Next's own 405 would not). `OPTIONS` answers 204 with the same
 * `Allow` through the pipeline too: Next.js's own answer to it has no request id and no log row.
 */
export function methods<P>(...implemented: RouteHandler<P>[]): RouteMethods<P> {
  const byMethod = new Map<HttpMethod, RouteHandler<P>>();
  for (const handler of implemented) {
    const declaration = declarationOf(handler);
    if (!declaration) throw new Error("methods() takes handlers made by endpoint(declaration, handler)");
    if (byMethod.has(declaration.method)) throw new Error(`${declaration.method} ${declaration.path} is declared twice`);
    byMethod.set(declaration.method, handler);
  }
  const allow = httpMethods.filter((m) => byMethod.has(m)).join(", ");
  const refuse = (method: HttpMethod): RouteHandler<P> =>
    publicEndpoint<P>(rateRules.ip, async () => {
      throw new AppError("method_not_allowed", { method, allow }, {}, { Allow: allow });
    });
  const options = publicEndpoint<P>(rateRules.ip, async () => noContent({ Allow: allow }));
  return {
    ...(Object.fromEntries(httpMethods.map((m) => [m, byMethod.get(m) ?? refuse(m)])) as Record<HttpMethod, RouteHandler<P>>),
    OPTIONS: options,
  };
}
