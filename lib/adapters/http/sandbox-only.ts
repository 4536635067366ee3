import { config } from "@/lib/base/config";
import { notFound } from "@/lib/base/errors";
import { rateRules } from "@/lib/infra/rate-limit";
import { publicEndpoint, type RouteHandler } from "./endpoint";
import type { RouteMethods } from "./methods";
import { declarationOf, registerDeclaration } from "./route";

/**
 * The methods of a path that exists in the sandbox only. In production every method answers as a
 * path no operation has (app/api/v1/[...path]/route.ts): 404 before the key is read, so production
 * does not tell that the path exists anywhere. Each handler keeps its declaration, so the document,
 * the 405's `Allow` and the tests read it as before.
 */
export function sandboxOnly<P>(handlers: RouteMethods<P>): RouteMethods<P> {
  const unknownPath = publicEndpoint<P>(rateRules.ip, async () => {
    throw notFound();
  });
  return Object.fromEntries(
    Object.entries(handlers).map(([method, handler]) => {
      const guarded: RouteHandler<P> = (request, context) =>
        config().APP_ENV === "sandbox" ? handler(request, context) : unknownPath(request, context);
      const declaration = declarationOf(handler);
      if (declaration) registerDeclaration(guarded, declaration);
      return [method, guarded];
    }),
  ) as RouteMethods<P>;
}
