import type { FieldParams, NoParams, ProblemParams, ValidationCode } from "@/lib/base/i18n/keys";

/**
 * The one error hierarchy. Every refusal the API can give has a stable code here with its HTTP
 * status; lib/base/problem.ts turns them into RFC 9457 problem+json with titles from the catalogues.
 */
export const errorStatus = {
  bad_request: 400,
  malformed_json: 400,
  invalid_encoding: 400,
  nesting_too_deep: 400,
  malformed_path: 400,
  unauthenticated: 401,
  missing_ability: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  listing_busy: 409,
  listing_action_refused: 409,
  idempotency_key_in_use: 409,
  limit_reached: 409,
  listing_changed_meanwhile: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  idempotency_key_reused: 422,
  too_many_requests: 429,
  too_many_waiting_requests: 429,
  internal_error: 500,
  service_unavailable: 503,
  // OAuth 2.0 (RFC 6749 §4.1.2.1, §5.2): the token endpoint answers them, the consent page redirects with them.
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  unsupported_response_type: 400,
  access_denied: 403,
  // RFC 8707 §2: a `resource` this server does not serve, or not the one consented to.
  invalid_target: 400,
  // RFC 7591 §3.2.2: a client's self-registration refused.
  invalid_client_metadata: 400,
  invalid_redirect_uri: 400,
  // The pre-signed upload URL (`PUT /uploads/{key}`): what S3 and its kin answer for the same refusals.
  upload_signature_invalid: 403,
  upload_expired: 403,
  upload_length_mismatch: 400,
  upload_incomplete: 400,
  upload_already_used: 409,
  // Bulk import (`POST /listings/imports`).
  import_empty: 400,
  import_too_many_lines: 413,
  import_in_progress: 409,
  import_ended: 409,
  stale_source: 409,
  // Feed URLs (`POST /feeds`).
  feed_pull_in_progress: 409,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export type MessageParams = Record<string, string | number>;

/** Extra problem members (documented per code), then response headers (`Allow` of a 405, `WWW-Authenticate` of a 401). */
type Rest = [extra?: Record<string, unknown>, headers?: Record<string, string>];

/** The arguments after the code: its typed parameters (required when its detail has any), then `Rest`. */
type AppErrorArgs<C extends ErrorCode> =
  NoParams extends ProblemParams<C> ? [params?: ProblemParams<C>, ...Rest] : [params: ProblemParams<C>, ...Rest];

export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly status: number;
  /**
   * Values interpolated into the catalogue's `detail` for this code; with `reason`, the detail is that
   * reason's text (lib/base/i18n/keys.ts). Typed by the code at construction.
   */
  readonly params: MessageParams;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: C,
    ...args: AppErrorArgs<C>
  ) {
    // A refusal is an answer, not a fault: its stack is never read, so none is captured (a flood of
    // 401s or 429s pays for nothing it does not use).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(code);
    Error.stackTraceLimit = stackTraceLimit;
    this.status = errorStatus[code];
    const [params, extra, headers] = args as [MessageParams?, ...Rest];
    this.params = params ?? {};
    this.extra = extra ?? {};
    this.headers = headers ?? {};
  }
}

/**
 * One entry of `errors[]`: a stable code at a JSON Pointer; `params`, typed by the code, fill the
 * catalogue's detail (`invalid` and `invalid_value` carry a `reason` key and its parameters).
 */
export type FieldError = { [C in ValidationCode]: FieldErrorOf<C> }[ValidationCode];

export type FieldErrorOf<C extends ValidationCode> = {
  pointer: string;
  code: C;
  /** Where the field lives when it is not in the body. */
  in?: "query" | "path" | "header";
} & (NoParams extends FieldParams<C> ? { params?: FieldParams<C> } : { params: FieldParams<C> });

/** The code and parameters of a field error, without its place: what a check finds. */
export type FieldIssue = { [C in ValidationCode]: Omit<FieldErrorOf<C>, "pointer" | "in"> }[ValidationCode];

export class ValidationError extends AppError<"validation_failed"> {
  constructor(readonly errors: FieldError[]) {
    super("validation_failed");
  }
}

export const notFound = () => new AppError("not_found");
