import { AppError, ValidationError } from "@/lib/base/errors";
import { traced } from "@/lib/base/tracing";
import { parseOrThrow, toFieldErrors } from "@/lib/base/validation/zod";
import { keyedEndpoint, publicEndpoint, type ApiRequest, type KeyedRequest, type RouteHandler } from "./endpoint";
import { rateRules } from "@/lib/infra/rate-limit";
import {
  apiBasePath,
  registerDeclaration,
  type BodyOf,
  type ParamsOf,
  type PathInputOf,
  type QueryOf,
  type RouteDeclaration,
} from "./route";

type Declared<D extends RouteDeclaration, R> = Omit<R, "params" | "body"> & {
  params: ParamsOf<D>;
  query: QueryOf<D>;
  /** The body, media type, size and encoding checked, then parsed with the declared schema; read at most once. */
  body(): Promise<BodyOf<D>>;
};

/** What a declared handler receives: with the caller's key unless the operation is public. */
export type DeclaredRequest<D extends RouteDeclaration> =
  D extends RouteDeclaration<"public"> ? Declared<D, ApiRequest<ParamsOf<D>>> : Declared<D, KeyedRequest<ParamsOf<D>>>;

/**
 * The handler of one declared operation. Before `handler` runs, in this order: the key and the
 * declared permission (or the per-address limit of a public operation), then the path parameters,
 * then the query, each parsed with the declaration's schemas. The body is parsed when the handler
 * asks for it, so a handler still decides what comes first (the sandbox check before the body).
 */
export function endpoint<D extends RouteDeclaration>(
  declaration: D,
  handler: (req: DeclaredRequest<D>) => Promise<Response>,
): RouteHandler<PathInputOf<D>> {
  const run = async (req: ApiRequest<PathInputOf<D>> | KeyedRequest<PathInputOf<D>>) => {
    const params = pathParameters(declaration, req.params);
    const query = declaration.query ? parseOrThrow(declaration.query, Object.fromEntries(req.url.searchParams), "query") : {};
    const body = async () => {
      const raw = await req.body(declaration.body?.types ?? ["application/json"]);
      return declaration.body && !declaration.body.checkedBy ? parseOrThrow(declaration.body.schema, raw) : raw;
    };
    // The handler calls the operation's service (its operationId is the service's name): one span for
    // that call, under the request's, rather than a wrapper in each of the services.
    return traced(declaration.operationId, { "code.function.name": declaration.operationId }, () =>
      // The parsed values have the declaration's types; TypeScript cannot follow them through safeParse.
      handler({ ...req, params, query, body } as unknown as DeclaredRequest<D>),
    );
  };
  const permission = declaration.permission;
  const route = `${apiBasePath}${declaration.path}`;
  const routeHandler =
    permission === "public"
      ? publicEndpoint<PathInputOf<D>>(rateRules[declaration.rateRule ?? "ip"], run, route)
      : keyedEndpoint<PathInputOf<D>>(permission === "any key" ? null : permission, run, route);
  registerDeclaration(routeHandler, declaration);
  // The path parameters are strings before the declaration's schema parses them, as Next.js passes them.
  operations.set(routeHandler, { declaration, run: run as DeclaredOperation["run"] });
  return routeHandler;
}

/**
 * A declared operation without the request pipeline around it: its path, query and body parsing,
 * its handler and its span, for a caller that has admitted the request itself (the MCP endpoint,
 * whose one request carries one tool call: one key check, one rate-limit hit, one API log row).
 */
export interface DeclaredOperation {
  declaration: RouteDeclaration;
  run(req: KeyedRequest<Record<string, string>>): Promise<Response>;
}

const operations = new WeakMap<object, DeclaredOperation>();

export const operationOf = (handler: object): DeclaredOperation | undefined => operations.get(handler);

function pathParameters(declaration: RouteDeclaration, params: unknown): unknown {
  if (!declaration.params) return params;
  const parsed = declaration.params.safeParse(params, { reportInput: true });
  if (parsed.success) return parsed.data;
  if (declaration.invalidPath !== "invalid") throw new AppError("not_found");
  throw new ValidationError(toFieldErrors(parsed.error.issues).map((error) => ({ ...error, in: "path" as const })));
}
