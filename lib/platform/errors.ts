/**
 * The one error hierarchy. Every refusal the API can give has a stable code here with its HTTP
 * status; lib/http/problem.ts turns them into RFC 9457 problem+json with titles from the catalogues.
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
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export type MessageParams = Record<string, string | number>;

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    /** Values interpolated into the catalogue's `detail` for this code. */
    readonly params: MessageParams = {},
    /** Extra problem members (documented per code). */
    readonly extra: Record<string, unknown> = {},
    /** Response headers the refusal carries (`Allow` of a 405). */
    readonly headers: Record<string, string> = {},
  ) {
    // A refusal is an answer, not a fault: its stack is never read, so none is captured (a flood of
    // 401s or 429s pays for nothing it does not use).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(code);
    Error.stackTraceLimit = stackTraceLimit;
    this.status = errorStatus[code];
  }
}

/** One entry of `errors[]`: a stable code at a JSON Pointer; `params` fill the catalogue's detail. */
export interface FieldError {
  pointer: string;
  code: string;
  params?: MessageParams;
  /** Where the field lives when it is not in the body. */
  in?: "query" | "path" | "header";
}

export class ValidationError extends AppError {
  constructor(readonly errors: FieldError[]) {
    super("validation_failed");
  }
}

export const notFound = () => new AppError("not_found");
