import { z } from "zod";
import { errorStatus } from "@/lib/base/errors";

export const problemSchema = z
  .object({
    type: z.string().meta({ description: "Address of the problem type: `{APP_URL}/problems/{code}`." }),
    title: z.string().meta({ description: "Human text in the request's language." }),
    status: z.number().int(),
    code: z
      .enum(Object.keys(errorStatus) as [keyof typeof errorStatus, ...(keyof typeof errorStatus)[]])
      .meta({ description: "Stable, never translated." }),
    reason: z.string().optional().meta({
      description:
        "Stable, never translated: why, more precisely than `code`, for the codes that have reasons (`unauthenticated`: `missing_key`, `malformed_key`, `production_key`, `sandbox_key`; `not_found`: `not_paused`, `not_in_catalog`; `listing_action_refused`; `limit_reached`). Listed on the page `type` points at.",
    }),
    detail: z.string(),
    errors: z
      .array(
        z.object({
          pointer: z
            .string()
            .meta({ description: "JSON Pointer to the field (`/title`, `/features/2`); for a query parameter `/name` with `in`." }),
          in: z.enum(["query", "path", "header"]).optional().meta({ description: "Present when the field is not in the body." }),
          code: z.string().meta({ description: "Stable validation code: compare it, never `detail`." }),
          reason: z.string().optional().meta({
            description: "`invalid` and `invalid_value` only: the stable reason (`read_only`, `immutable`, `control_character`, …).",
          }),
          detail: z.string(),
        }),
      )
      .optional()
      .meta({ description: "422 only: one item per field error." }),
    request_id: z.string().optional().meta({ description: "500 only: the request id to quote." }),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details (`application/problem+json`)." });

const problemContent = { "application/problem+json": { schema: problemSchema } };

const describedStatuses: Record<number, string> = {
  400: "The body is not JSON (`malformed_json`), not UTF-8 (`invalid_encoding`) or nested deeper than 64 levels (`nesting_too_deep`); a path segment is not percent-encoded UTF-8 (`malformed_path`). Upload URLs: `upload_length_mismatch`, `upload_incomplete`.",
  401: "`unauthenticated`: key missing (`reason` `missing_key`), malformed (`malformed_key`), of the other environment (`production_key`, `sandbox_key`), or wrong, expired, revoked or of an inactive account (no `reason`).",
  403: "`missing_ability`: the key lacks the permission. Upload URLs: `upload_signature_invalid`, `upload_expired`.",
  404: "`not_found`: does not exist or is not the caller's.",
  409: "`listing_busy` (another write in progress, nothing written) or `listing_action_refused`; upload URLs: `upload_already_used`.",
  412: "`listing_changed_meanwhile`: `If-Match` holds an old version.",
  413: "`payload_too_large`: body over 1 MiB (an upload: over its declared `content_length`).",
  415: "`unsupported_media_type`.",
  422: "Invalid data, see `errors[]`.",
  429: "`too_many_requests`: wait `Retry-After` seconds.",
  500: "`internal_error`: an unexpected failure, nothing internal shown; quote `request_id` when reporting it.",
  503: "`service_unavailable`: the database cannot be reached right now (restarting, connections lost); the request's transaction was rolled back. Retry after `Retry-After` seconds.",
};

const retryAfter = { "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" as const } } };
const challenge = {
  "WWW-Authenticate": {
    description: 'RFC 6750 challenge: `Bearer` when no key was sent, `Bearer error="invalid_token"` when one was.',
    schema: { type: "string" as const },
  },
};
const statusHeaders: Record<number, typeof retryAfter | typeof challenge> = { 401: challenge, 429: retryAfter, 503: retryAfter };

export function problemResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((s) => [
      String(s),
      { description: describedStatuses[s], ...(statusHeaders[s] ? { headers: statusHeaders[s] } : {}), content: problemContent },
    ]),
  );
}

export const rateLimitHeaders = {
  "X-Request-Id": { description: "Identifies the request (on every response).", schema: { type: "string" as const } },
  "X-RateLimit-Limit": { description: "Requests allowed per minute.", schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" as const } },
  "X-RateLimit-Reset": { description: "Seconds until the window frees.", schema: { type: "integer" as const } },
};
