import { randomUUID } from "node:crypto";
import { database, type Database } from "@/db";
import { clientIp } from "@/lib/base/client-ip";
import { apiContext, publicContext, type Actor, type ApiActor, type PublicActor, type ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { resolveLocale, type Locale } from "@/lib/base/i18n";
import { authenticate, bearerToken, requirePermission, requireResource, type Principal } from "@/lib/domain/keys/authenticate";
import { apiResource } from "@/lib/domain/oauth/resources";
import type { Permission } from "@/lib/domain/keys/format";
import { logger } from "@/lib/base/logger";
import { recordRequestDuration, SpanKind, SpanStatusCode, traced, type Span } from "@/lib/base/tracing";
import { logApiRequest } from "./api-log";
import { readJsonBody } from "./body";
import { anonymousLocale, invalidLocale, queryLocale } from "./locale";
import { knownError, problemContentType, renderProblem } from "@/lib/base/problem";
import { rateLimiter, rateRules, type RateLimitDecision, type RateRule } from "@/lib/infra/rate-limit";
import { json, payloadOf } from "./respond";
import { v1VersionHeaders } from "./versions";

export interface ApiRequest<P, A extends Actor = PublicActor> {
  request: Request;
  url: URL;
  params: P;
  requestId: string;
  locale: Locale;
  ctx: ServiceContext<A>;
  /** The JSON body, media type and size checked; read at most once. */
  body(accepted?: readonly string[]): Promise<unknown>;
  /** What the API log keeps as the request's body when the handler reads a body `body()` cannot (an NDJSON import). */
  logBody(value: unknown): void;
}

export interface KeyedRequest<P> extends ApiRequest<P, ApiActor> {
  principal: Principal;
}

type RouteContext<P> = { params: Promise<P> };
export type RouteHandler<P> = (request: Request, context: RouteContext<P>) => Promise<Response>;

/** State of one request as it goes through the pipeline; `finish` turns it into headers and a log entry. */
interface Exchange {
  requestId: string;
  method: string;
  started: number;
  url: URL;
  ip: string;
  locale: Locale;
  principal?: Principal;
  rate?: RateLimitDecision;
  requestBody?: unknown;
  /** The path template, for the span and the latency metric. */
  route?: string;
}

/**
 * An endpoint that needs a key with `permission` (`null`: any valid key). With `resourceMetadata`
 * (an OAuth protected resource's RFC 9728 document, the MCP endpoint's), every 401's challenge
 * names that document, so a client that has no token yet finds where to get one. `resource` is the
 * resource identifier the endpoint serves (RFC 8707; the REST API's unless said): a key bound to
 * another one is a 401.
 */
export function keyedEndpoint<P = Record<string, never>>(
  permission: Permission | null,
  handler: (req: KeyedRequest<P>) => Promise<Response>,
  route?: string,
  options: { resourceMetadata?: () => string; resource?: () => string } = {},
): RouteHandler<P> {
  const served = options.resource ?? apiResource;
  return pipeline<P>(route, async (exchange, request, db) => {
    let principal: Principal;
    try {
      principal = await authenticate(db, bearerToken(request.headers.get("authorization")), new Date());
      requireResource(principal, served());
    } catch (error) {
      if (options.resourceMetadata && error instanceof AppError && error.code === "unauthenticated") {
        namesResourceMetadata(error, options.resourceMetadata());
      }
      // Failed authentications count against the caller's address, so guessing keys is limited too.
      await limit(exchange, `ip:${exchange.ip}`, rateRules.ip);
      throw error;
    }
    exchange.principal = principal;
    await limit(exchange, principal.key.id, rateRules.key);
    exchange.locale = requestLocale(exchange, request, principal.account.language);
    if (permission) requirePermission(principal, permission);
    const caller = { accountId: principal.account.id, keyId: principal.key.id, agency: principal.account.agency };
    const ctx = apiContext(db, caller, { locale: exchange.locale, signal: request.signal });
    return (req) => handler({ ...req, ctx, principal });
  });
}

/** RFC 9728 §5.1: `resource_metadata` beside the RFC 6750 challenge's own parameters. */
function namesResourceMetadata(error: AppError, url: string): void {
  const challenge = error.headers["WWW-Authenticate"] ?? "Bearer";
  const parameter = `resource_metadata="${url}"`;
  error.headers["WWW-Authenticate"] = challenge === "Bearer" ? `Bearer ${parameter}` : `${challenge}, ${parameter}`;
}

/** An endpoint without a key (vocabulary, token exchange, unknown paths), limited per address. */
export function publicEndpoint<P = Record<string, never>>(
  rule: RateRule,
  handler: (req: ApiRequest<P>) => Promise<Response>,
  route?: string,
): RouteHandler<P> {
  return pipeline<P>(route, async (exchange, request, db) => {
    await limit(exchange, `ip:${exchange.ip}`, rule);
    exchange.locale = requestLocale(exchange, request, null);
    return (req) => handler({ ...req, ctx: publicContext(db, { locale: exchange.locale }) });
  });
}

/**
 * A request whose method no `Request` can carry (the Fetch standard forbids TRACE): the
 * server's guard passes a GET stand-in and the real method, refused with 405 like any other method.
 */
export function refuseForbiddenMethod(standIn: Request, method: string, allow: string): Promise<Response> {
  const refuse = pipeline<Record<string, never>>(undefined, async (exchange) => {
    exchange.method = method;
    await limit(exchange, `ip:${exchange.ip}`, rateRules.ip);
    throw new AppError("method_not_allowed", { method, allow }, {}, { Allow: allow });
  });
  return refuse(standIn, { params: Promise.resolve({}) });
}

type Admit<P> = (exchange: Exchange, request: Request, db: Database) => Promise<(req: Omit<ApiRequest<P>, "ctx">) => Promise<Response>>;

/**
 * Every API request's path: admitted (key, limits, locale), handled, or turned into a problem, then
 * finished. The whole of it is one server span named by `route`, the path template (absent for the
 * paths no operation declares), which the request's other spans (services, queries) are children of;
 * a `traceparent` header makes it a child of the caller's span.
 */
function pipeline<P>(route: string | undefined, admit: Admit<P>): RouteHandler<P> {
  return (request, context) =>
    traced(
      route ? `${request.method} ${route}` : request.method,
      route ? { "http.route": route } : {},
      async (span) => {
        const url = new URL(request.url);
        const exchange: Exchange = {
          requestId: `req_${randomUUID().replace(/-/g, "")}`,
          method: request.method,
          started: performance.now(),
          url,
          ip: clientIp(request.headers.get("x-forwarded-for")),
          locale: anonymousLocale(request, url),
          route,
        };
        span.setAttribute("request.id", exchange.requestId);
        let response: Response;
        try {
          const run = await admit(exchange, request, await database());
          const params = ((await context?.params) ?? {}) as P;
          response = await run({
            request,
            url,
            params,
            requestId: exchange.requestId,
            locale: exchange.locale,
            body: async (accepted) => (exchange.requestBody = await readJsonBody(request, accepted)),
            logBody: (value) => (exchange.requestBody = value),
          });
        } catch (error) {
          response = problemResponse(error, exchange, span);
        }
        return finish(response, exchange, span);
      },
      SpanKind.SERVER,
      request.headers,
    );
}

function requestLocale(exchange: Exchange, request: Request, accountLanguage: string | null): Locale {
  const query = queryLocale(exchange.url);
  const locale = resolveLocale({ query: query.value, account: accountLanguage, acceptLanguage: request.headers.get("accept-language") });
  if (query.invalid) {
    exchange.locale = locale;
    throw invalidLocale();
  }
  return locale;
}

async function limit(exchange: Exchange, bucket: string, rule: RateRule): Promise<void> {
  exchange.rate = await rateLimiter().hit(bucket, rule);
  if (exchange.rate.limited) {
    throw new AppError("too_many_requests", { limit: exchange.rate.limit, retry_after: exchange.rate.resetSeconds });
  }
}

function problemResponse(error: unknown, exchange: Exchange, span: Span): Response {
  const known = knownError(error);
  if (!(error instanceof AppError)) {
    if (error instanceof Error) span.recordException(error);
    const message = known.code === "service_unavailable" ? "database unavailable" : "unhandled error";
    logger.error(message, { requestId: exchange.requestId, path: exchange.url.pathname, error });
  }
  const body = renderProblem(known, exchange.locale, exchange.requestId);
  const headers = new Headers(known.headers);
  // The rate limit's wait, unless the refusal says its own (a long poll's, `too_many_waiting_requests`).
  if (body.status === 429 && exchange.rate && !headers.has("Retry-After")) headers.set("Retry-After", String(exchange.rate.resetSeconds));
  return json(body, { status: body.status, headers, contentType: problemContentType });
}

/**
 * Headers every answer carries and its API log entry. Nothing here may turn an answer into an error:
 * the handler's work (a committed write) is done, and a client that saw a 5xx would repeat it.
 */
function finish(response: Response, exchange: Exchange, span: Span): Response {
  try {
    const headers = response.headers;
    headers.set("X-Request-Id", exchange.requestId);
    if (exchange.rate) {
      headers.set("X-RateLimit-Limit", String(exchange.rate.limit));
      headers.set("X-RateLimit-Remaining", String(exchange.rate.remaining));
      headers.set("X-RateLimit-Reset", String(exchange.rate.resetSeconds));
    }
    for (const [name, value] of v1VersionHeaders()) headers.set(name, value);
    if (!headers.has("content-language") && headers.get("content-type")?.includes("json")) headers.set("Content-Language", exchange.locale);
  } catch (error) {
    logger.error("response headers not set", { requestId: exchange.requestId, error });
  }
  const sent = payloadOf(response);
  logApiRequest({
    requestId: exchange.requestId,
    keyId: exchange.principal?.key.id ?? null,
    accountId: exchange.principal?.account.id ?? null,
    method: exchange.method,
    path: exchange.url.pathname,
    query: exchange.url.search || null,
    status: response.status,
    durationMs: Math.round(performance.now() - exchange.started),
    ip: exchange.ip,
    requestBody: exchange.requestBody ?? null,
    responseBody: sent?.payload ?? null,
    responseText: sent?.text,
    createdAt: new Date(),
  });
  // The method read at the end: a forbidden method's stand-in request carried GET (refuseForbiddenMethod).
  span.updateName(exchange.route ? `${exchange.method} ${exchange.route}` : exchange.method);
  span.setAttributes({ "http.request.method": exchange.method, "http.response.status_code": response.status });
  if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  recordRequestDuration((performance.now() - exchange.started) / 1000, {
    "http.request.method": exchange.method,
    "http.response.status_code": response.status,
    ...(exchange.route ? { "http.route": exchange.route } : {}),
  });
  return response;
}
