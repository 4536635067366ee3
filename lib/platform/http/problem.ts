import { databaseUnavailable } from "@/db/errors";
import { config } from "@/lib/platform/config";
import { AppError, ValidationError, type ErrorCode, type FieldError } from "@/lib/platform/errors";
import { format, messages, type Locale } from "@/lib/platform/i18n";

export const problemContentType = "application/problem+json";

export const problemType = (code: string): string => `${config().APP_URL}/problems/${code}`;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  errors?: { pointer: string; code: string; detail: string; in?: FieldError["in"] }[];
  [extra: string]: unknown;
}

/**
 * Seconds a client is told to wait when the database is unreachable: a terminated connection is
 * replaced on the next query, and a restarting PostgreSQL accepts connections within seconds.
 */
export const databaseRetryAfterSeconds = 5;

/**
 * The error a thrown value stands for: ours as it is; a lost or refused database connection as 503
 * `service_unavailable` with `Retry-After` (the server rolls back a transaction cut off before its
 * COMMIT; only a COMMIT whose answer is lost on the way leaves the outcome unknown); anything else
 * an opaque 500.
 */
export function knownError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (databaseUnavailable(error)) {
    const retryAfter = databaseRetryAfterSeconds;
    return new AppError("service_unavailable", { retry_after: retryAfter }, {}, { "Retry-After": String(retryAfter) });
  }
  return new AppError("internal_error");
}

/**
 * Renders any thrown value as RFC 9457 problem details in the request's language. Errors that are
 * not ours become an opaque 500 carrying only the request id: nothing internal reaches the client.
 */
export function renderProblem(error: unknown, locale: Locale, requestId: string): ProblemBody {
  const known = knownError(error);
  const code: ErrorCode = known.code;
  const catalogue = messages(locale);
  const text = catalogue.problems[code];
  const body: ProblemBody = {
    ...known.extra,
    type: problemType(code),
    title: text.title,
    status: known.status,
    code,
    detail: format(text.detail, { ...known.params, request_id: requestId }),
  };
  if (known instanceof ValidationError) {
    body.errors = known.errors.map((e) => ({
      ...(e.in ? { in: e.in } : {}),
      pointer: e.pointer,
      code: e.code,
      detail: fieldDetail(catalogue, e),
    }));
  }
  if (code === "internal_error") body.request_id = requestId;
  return body;
}

/**
 * The detail of one field error: the code's text, where `{reason}` is either a key of
 * `validation_reasons` (translated, filled with the same params) or already a sentence.
 */
function fieldDetail(catalogue: ReturnType<typeof messages>, error: FieldError): string {
  const texts = catalogue.validation as Record<string, string>;
  const reasons = catalogue.validation_reasons as Record<string, string>;
  const params = error.params ?? {};
  const reason =
    typeof params.reason === "string" && reasons[params.reason] ? format(reasons[params.reason], params) : (params.reason ?? error.code);
  return format(texts[error.code] ?? texts.invalid, { ...params, reason });
}
