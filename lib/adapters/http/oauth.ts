import { AppError } from "@/lib/base/errors";
import type { Locale } from "@/lib/base/i18n";
import { describeError } from "@/lib/domain/oauth/error-description";
import { renderProblem } from "@/lib/base/problem";
import { json } from "./respond";

/** RFC 6749 §5.1: token answers, errors included, are never cached. */
export const noStore = { "Cache-Control": "no-store", Pragma: "no-cache" } as const;

const oauthErrors = new Set<string>([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unsupported_grant_type",
  "invalid_scope",
  "invalid_target",
  "invalid_client_metadata",
  "invalid_redirect_uri",
]);

/**
 * Runs an OAuth endpoint's work and answers its OAuth errors (docs/accounts.md, OAuth): the RFC 6749 §5.2
 * status and `application/json` body (`error`, `error_description`) that client libraries read, with
 * the problem members (`type`, `title`, `status`, `code`, `detail`) in the request's language beside
 * them. `WWW-Authenticate` comes with the error. Any other failure goes to the pipeline (a problem).
 */
export async function oauthResponse(exchange: { locale: Locale; requestId: string }, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError) || !oauthErrors.has(error.code)) throw error;
    const problem = renderProblem(error, exchange.locale, exchange.requestId);
    const body = { error: error.code, error_description: describeError(error, exchange.locale), ...problem };
    return json(body, { status: error.status, headers: { ...noStore, ...error.headers } });
  }
}
