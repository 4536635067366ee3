import type { z } from "zod";
import type { Permission } from "@/lib/domain/keys/format";
import type { rateRules } from "@/lib/infra/rate-limit/rules";

/**
 * One declaration per operation, written once in a `declaration.ts` beside its `route.ts` (a route
 * file may export only HTTP method handlers and segment config, so the document reads the small
 * file, never the route module). Two readers, so the two cannot drift apart:
 *
 * - the endpoint wrapper (`endpoint(declaration, handler)`, declared-endpoint.ts): key and permission,
 *   path parameters and query parsed with these schemas before the handler runs, the body when it
 *   reads it;
 * - the OpenAPI document (lib/adapters/openapi/document.ts): path, method, operationId, summary,
 *   parameters, body with its example, responses and refusals.
 *
 * The tests read it too: every keyed declaration gets the common route tests (401, 403, 404, 405,
 * request id and rate-limit headers), and real responses are checked against `responses`.
 */

/** Where the operations' paths start (the OpenAPI document's server address). */
export const apiBasePath = "/api/v1";

export const httpMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof httpMethods)[number];

/** A key's permission, any valid key (`any key`), or no key at all (`public`, limited per address). */
export type Access = Permission | "any key" | "public";

export interface HeaderDeclaration {
  description: string;
  schema: { type: "string" | "integer" };
}

export interface ResponseDeclaration {
  description: string;
  /** The JSON body; absent for an empty answer (204, 304). */
  schema?: z.ZodType;
  headers?: Record<string, HeaderDeclaration>;
}

export interface BodyDeclaration<S extends z.ZodType = z.ZodType> {
  schema: S;
  /** Accepted media types, the first one shown in the document's examples. Default `application/json`. */
  types?: readonly string[];
  /** A body that succeeds, shown and sent by the API reference page (`/docs/api`). */
  example: unknown;
  description?: string;
  /** A media type of `types` whose body has another schema and example (a JSON reference beside NDJSON lines). */
  variants?: Readonly<Record<string, { schema: z.ZodType; example: unknown }>>;
  /**
   * Set when a domain validator checks the body rather than `schema`, which then only documents it:
   * the listing bodies go through `validateListing`, whose codes zod cannot give (rules across
   * fields, required members by property type, unknown members as warnings, retired codes).
   */
  checkedBy?: string;
}

export interface RouteDeclaration<
  A extends Access = Access,
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  B extends BodyDeclaration | undefined = BodyDeclaration | undefined,
> {
  method: HttpMethod;
  /** Relative to the base address (`/api/v1`), parameters in braces as in OpenAPI: `/listings/{code}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  permission: A;
  /** Keyless operations only: the per-address limit (default `ip`, 300 a minute). */
  rateRule?: keyof typeof rateRules;
  params?: P;
  /**
   * What a path parameter its schema refuses answers: `not_found` (default) because a path no
   * resource can have names none, like a listing that does not exist, or `invalid` (a 422
   * with `"in": "path"`) where the path names what is being created (`PUT /listings/ref/{ref}`).
   */
  invalidPath?: "not_found" | "invalid";
  /** Query parameters; unknown ones are ignored. A refused value is a 422 with `"in": "query"`. */
  query?: Q;
  /**
   * Request headers the handler reads, documented only: their checks belong to a later step of the
   * handler (`Idempotency-Key` after the body, `If-Match` after the listing is found: 404 wins over 412).
   */
  headers?: z.ZodObject;
  body?: B;
  responses: Record<number, ResponseDeclaration>;
  /** Refusals beyond those every operation can give (401/403 for keyed ones, 429, 503). */
  errors?: readonly number[];
}

/** Identity with inference: the declaration keeps its literal permission and schema types. */
export function defineRoute<
  A extends Access,
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends BodyDeclaration | undefined = undefined,
>(declaration: RouteDeclaration<A, P, Q, B>): RouteDeclaration<A, P, Q, B> {
  return declaration;
}

export type ParamsOf<D> =
  D extends RouteDeclaration<Access, infer P> ? (P extends z.ZodObject ? z.output<P> : Record<string, never>) : never;
export type PathInputOf<D> =
  D extends RouteDeclaration<Access, infer P> ? (P extends z.ZodObject ? z.input<P> : Record<string, never>) : never;
export type QueryOf<D> =
  D extends RouteDeclaration<Access, z.ZodObject | undefined, infer Q>
    ? Q extends z.ZodObject
      ? z.output<Q>
      : Record<string, never>
    : never;
export type BodyOf<D> =
  D extends RouteDeclaration<Access, z.ZodObject | undefined, z.ZodObject | undefined, infer B>
    ? B extends { checkedBy: string }
      ? unknown
      : B extends BodyDeclaration<infer S>
        ? z.output<S>
        : never
    : never;

/** The declaration of a path's handler, for the tests and the 405's `Allow`. */
const declared = new WeakMap<object, RouteDeclaration>();

export function registerDeclaration(handler: object, declaration: RouteDeclaration): void {
  declared.set(handler, declaration);
}

export const declarationOf = (handler: object): RouteDeclaration | undefined => declared.get(handler);
