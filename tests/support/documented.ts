import path from "node:path";
import { z } from "zod";
import { routes } from "@/app/api/v1/routes";
import type { RouteMethods } from "@/lib/adapters/http/methods";
import { declarationOf, httpMethods, type HttpMethod, type RouteDeclaration } from "@/lib/adapters/http/route";
import { problemSchema } from "@/lib/adapters/openapi/components";
import { documentedRefusals } from "@/lib/adapters/openapi/operations";

/**
 * Checks a real answer of a declared handler against its declaration (the OpenAPI document is built
 * from the same one): a success must be a documented status whose body matches its schema, and a
 * refusal a documented status with a body matching `Problem` (or the body the declaration gives that status). `call()` (fixtures.ts) runs it on every
 * answer of the test suite, so a response that drifts from the document fails the test that got it.
 */
export function expectDocumented(handler: object, status: number, body: unknown): void {
  const declaration = declarationOf(handler);
  if (!declaration) return;
  const where = `${declaration.method} ${declaration.path} answered ${status}`;
  if (status >= 400) {
    if (!documentedRefusals(declaration).includes(status)) throw new Error(`${where}, a status its declaration does not document`);
    expectMatch(declaration.responses[status]?.schema ?? problemSchema, body, where);
    return;
  }
  const documented = declaration.responses[status];
  if (!documented) throw new Error(`${where}, a status its declaration does not document`);
  if (documented.schema) expectMatch(documented.schema, body, where);
  else if (body !== undefined) throw new Error(`${where} with a body, documented without one`);
}

function expectMatch(schema: z.ZodType, body: unknown, where: string): void {
  const result = schema.safeParse(body);
  if (!result.success) throw new Error(`${where} with a body that does not match its documented schema:\n${z.prettifyError(result.error)}`);
}

/** The route file of a declared path: `/listings/{code}/pause` → app/api/v1/listings/[code]/pause/route.ts. */
export function routeFileOf(declaredPath: string): string {
  return path.join(import.meta.dirname, "../../app/api/v1", declaredPath.replace(/\{(\w+)\}/g, "[$1]"), "route.ts");
}

/** The handlers a route file exports, one per method, as Next.js calls them. */
export async function routeModuleOf(declaredPath: string): Promise<RouteMethods<Record<string, string>>> {
  return (await import(routeFileOf(declaredPath))) as RouteMethods<Record<string, string>>;
}

/** The methods declared on a path, in `Allow` order. */
export const declaredMethods = (declaredPath: string): HttpMethod[] =>
  httpMethods.filter((method) => routes.some((route) => route.path === declaredPath && route.method === method));

/** The request path of a declaration with its parameters filled in (encoded as a client would). */
export const pathOf = (declaration: RouteDeclaration, params: Record<string, string> = {}): string =>
  declaration.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
