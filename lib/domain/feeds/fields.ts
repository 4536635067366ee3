import { z } from "zod";
import { feedPullOutcomes, importModes, type ListingFeed } from "@/db/schema";
import { idPattern } from "@/lib/base/ids";
import { MAX_URL_LENGTH } from "@/lib/infra/net/public-address";
import { defaultFeedIntervalMinutes, maxFeedIntervalMinutes, minFeedIntervalMinutes } from "./limits";

/** Body of `POST /feeds` (and the portal's form). */
export const feedInput = z
  .object({
    url: z.string().trim().min(1).max(MAX_URL_LENGTH).meta({
      format: "uri",
      description:
        "Where the file is: `https://` on a public host (checked now and at every pull). NDJSON (one `PUT /listings/ref/{ref}` body a line) or a JSON array of such bodies.",
    }),
    // Optional rather than defaulted, so the document shows them optional in the request; the service applies the defaults.
    mode: z.enum(importModes).optional().meta({
      description: "How each new file is applied, as `mode` of `POST /listings/imports`: `upsert` (default) or `full`.",
    }),
    max_withdrawals: z.number().int().min(0).nullable().optional().meta({
      description:
        "Only with `mode` `full`: the most listings one pull's import may withdraw (see `max_withdrawals` of `POST /listings/imports`). Absent or null: half the active listings that have a ref.",
    }),
    interval_minutes: z
      .number()
      .int()
      .min(minFeedIntervalMinutes)
      .max(maxFeedIntervalMinutes)
      .optional()
      .meta({
        description: `Minutes between pulls: ${minFeedIntervalMinutes}–${maxFeedIntervalMinutes.toLocaleString("en")} (a week), default ${defaultFeedIntervalMinutes}.`,
      }),
  })
  .meta({ id: "FeedInput" });

export type FeedInput = z.output<typeof feedInput>;

export const feedIdParams = z.object({
  id: z.string().regex(idPattern("feed")).meta({ description: "The feed's id (`feed_…`), as `POST /feeds` answered." }),
});

export const lastPullSchema = z
  .object({
    at: z.string().meta({ format: "date-time", description: "When the pull ended." }),
    outcome: z.enum(feedPullOutcomes).meta({
      description:
        "`changed`: a new file, applied as the import `import_id`; `unchanged`: the server answered `304 Not Modified` to the validators of the last file imported, nothing was imported; `failed`: no import (see `error_code`).",
    }),
    http_status: z.number().int().nullable().meta({ description: "The status the feed's server answered; null when it did not answer." }),
    error_code: z.string().nullable().meta({
      description:
        "Why a `failed` pull made no import: `timeout`, `connection_failed`, `dns_failed`, `tls_failed`, `invalid_response`, `refused_address` (the host is not public), `http_error` (any status but 200 and 304), `payload_too_large`, `invalid_encoding`, `malformed_json`, `import_empty`, `import_too_many_lines`, `import_in_progress` (another import of the account ran), `key_revoked`, `key_expired`, `account_inactive`. Accept other values too.",
    }),
    import_id: z
      .string()
      .nullable()
      .meta({ description: "The import a `changed` pull made (`GET /listings/imports/{id}`); null otherwise." }),
  })
  .meta({ id: "FeedPull" });

export const feedSchema = z
  .object({
    id: z.string(),
    url: z.string().meta({ format: "uri" }),
    mode: z.enum(importModes),
    max_withdrawals: z.number().int().nullable(),
    interval_minutes: z.number().int(),
    next_pull_at: z.string().meta({ format: "date-time", description: "When the next scheduled pull is due." }),
    pulling: z.boolean().meta({ description: "A pull, or the import of its file, is queued or running." }),
    last_pull: lastPullSchema.nullable().meta({ description: "The last pull that ended; null before the first." }),
    failing_since: z.string().nullable().meta({
      format: "date-time",
      description: "Since when every pull has failed; null when the last did not. After 24 hours the owner is mailed, once a streak.",
    }),
    created_at: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "Feed" });

export type FeedView = z.output<typeof feedSchema>;

/** A feed as the API and the portal show it; `pulling` from the claim or an import of the feed still pending. */
export function renderFeed(row: ListingFeed, pendingImport: boolean): FeedView {
  return {
    id: row.id,
    url: row.url,
    mode: row.mode,
    max_withdrawals: row.maxWithdrawals,
    interval_minutes: row.intervalMinutes,
    next_pull_at: row.nextPullAt.toISOString(),
    pulling: row.pullClaimedAt !== null || pendingImport,
    last_pull:
      row.lastPullAt && row.lastPullOutcome
        ? {
            at: row.lastPullAt.toISOString(),
            outcome: row.lastPullOutcome,
            http_status: row.lastPullHttpStatus,
            error_code: row.lastPullErrorCode,
            import_id: row.lastPullImportId,
          }
        : null,
    failing_since: row.failingSince?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
