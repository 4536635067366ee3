import { databaseUnavailable } from "@/db/errors";
import { config } from "@/lib/base/config";
import { AppError, ValidationError, type ErrorCode, type FieldError } from "@/lib/base/errors";
import { format, messages, quantity, type Locale } from "@/lib/base/i18n";
import { quantityParam, type Messages, type Unit } from "@/lib/base/i18n/keys";

export const problemContentType = "application/problem+json";

const problemType = (code: string): string => `${config().APP_URL}/problems/${code}`;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: string;
  /** Why, more precisely than `code`, for the codes that have reasons (lib/base/i18n/keys.ts); stable, never translated. */
  reason?: string;
  detail: string;
  errors?: { pointer: string; code: string; reason?: string; detail: string; in?: FieldError["in"] }[];
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
  const text: Messages["problems"][ErrorCode] = catalogue.problems[code];
  const reason = known.params.reason;
  const reasons: Readonly<Record<string, string>> = text.reasons ?? {};
  const template = typeof reason === "string" && Object.hasOwn(reasons, reason) ? reasons[reason] : text.detail;
  const body: ProblemBody = {
    ...known.extra,
    type: problemType(code),
    title: text.title,
    status: known.status,
    code,
    ...(typeof reason === "string" ? { reason } : {}),
    detail: format(locale, template, { ...known.params, request_id: requestId }),
  };
  if (known instanceof ValidationError) {
    body.errors = known.errors.map((e) => ({
      ...(e.in ? { in: e.in } : {}),
      pointer: e.pointer,
      code: e.code,
      ...(e.params && "reason" in e.params ? { reason: e.params.reason } : {}),
      detail: fieldDetail(locale, e),
    }));
  }
  if (code === "internal_error") body.request_id = requestId;
  return body;
}

/**
 * The detail of one field error: the code's text, where `{reason}` is the text of the reason's key
 * in `validation_reasons` (filled with the same params) and the bound named by `quantityParam` is a
 * quantity of the error's `unit` ("10 characters", "3 items", "1 m²").
 */
function fieldDetail(locale: Locale, error: FieldError): string {
  const catalogue = messages(locale);
  const params: Record<string, string | number> = { ...error.params };
  if (typeof params.reason === "string") {
    params.reason = format(locale, catalogue.validation_reasons[params.reason as keyof Messages["validation_reasons"]], params);
  }
  const counted: string | undefined = quantityParam[error.code as keyof typeof quantityParam];
  if (counted && "unit" in params) params[counted] = quantity(locale, params.unit as Unit, params[counted]);
  return format(locale, catalogue.validation[error.code], params);
}
