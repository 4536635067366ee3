import { AppError } from "@/lib/platform/errors";
import { publicEndpoint, type RouteHandler } from "./endpoint";
import { rateRules } from "./rate-limit";

export const httpMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof httpMethods)[number];

/**
 * Every method of a path: the implemented ones, and for the others a 405 problem with `Allow`
 * that still carries the request id and goes through the pipeline (Next's own 405 would not).
 */
export function methods<P>(implemented: Partial<Record<Method, RouteHandler<P>>>): Record<Method, RouteHandler<P>> {
  const allow = httpMethods.filter((m) => implemented[m]).join(", ");
  const refuse = (method: Method): RouteHandler<P> =>
    publicEndpoint<P>(rateRules.ip, async () => {
      throw new AppError("method_not_allowed", { method, allow }, {}, { Allow: allow });
    });
  return Object.fromEntries(httpMethods.map((m) => [m, implemented[m] ?? refuse(m)])) as Record<Method, RouteHandler<P>>;
}
