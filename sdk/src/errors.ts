import { retryAfterMs } from "./retries.js";
import type { FieldError, Problem, ProblemCode, ResponseInfo, WithResponse } from "./types.js";

/**
 * A refusal or failure of the API, from its RFC 9457 problem (`application/problem+json`). Compare
 * `code` (and each `errors[].code`), never `title` or `detail`: those are human text in the request's
 * language and may change.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  /** Stable code (`not_found`, `validation_failed`, `listing_changed_meanwhile`…); `http_<status>` when the body is no problem. */
  readonly code: ProblemCode;
  /** Stable sub-code some codes carry (`unauthenticated`: `missing_key`…; `not_found`: `not_paused`…). */
  readonly reason: string | undefined;
  readonly type: string | undefined;
  readonly title: string;
  readonly detail: string;
  /** 422: one item per field error, each with a JSON `pointer`, a stable `code` and a human `detail`. */
  readonly errors: FieldError[];
  /** `X-Request-Id` of the response (also the problem's `request_id` on a 500). */
  readonly requestId: string | null;
  /** `Retry-After` in seconds (read from seconds or an HTTP date) on a 429 or 503 the client stopped retrying. */
  readonly retryAfter: number | null;
  /** The body as received. */
  readonly body: unknown;

  constructor(response: Response, body: unknown) {
    const problem = (typeof body === "object" && body !== null ? body : {}) as Partial<Problem>;
    const code = problem.code ?? `http_${response.status}`;
    const detail = problem.detail ?? (typeof body === "string" ? body : "");
    super(`${response.status} ${code}${detail ? `: ${detail}` : ""}`);
    this.status = response.status;
    this.code = code;
    this.reason = problem.reason;
    this.type = problem.type;
    this.title = problem.title ?? response.statusText;
    this.detail = detail;
    this.errors = problem.errors ?? [];
    this.requestId = response.headers.get("x-request-id") ?? problem.request_id ?? null;
    const retryAfter = retryAfterMs(response.headers.get("retry-after"));
    this.retryAfter = retryAfter === undefined ? null : Math.ceil(retryAfter / 1000);
    this.body = body;
  }
}

export function responseInfo(response: Response): ResponseInfo {
  return { status: response.status, headers: response.headers, requestId: response.headers.get("x-request-id") };
}

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a 2xx answer with `lastResponse` beside it; any other answer throws an ApiError. */
export async function unwrap<T>(call: Promise<Outcome<T>>): Promise<WithResponse<NonNullable<T>>> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response, error);
  const body = (data ?? {}) as NonNullable<T>;
  return Object.defineProperty(body, "lastResponse", { value: responseInfo(response), enumerable: false }) as WithResponse<NonNullable<T>>;
}

/** For answers without a body (204): throws an ApiError unless 2xx, then gives the response's information. */
export async function unwrapEmpty(call: Promise<Outcome<unknown>>): Promise<ResponseInfo> {
  const { error, response } = await call;
  if (!response.ok) throw new ApiError(response, error);
  return responseInfo(response);
}
