import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { importModes } from "./imports";

/** How a feed's last pull ended: a new file imported, the same file (`304`, nothing imported), or no import. */
export const feedPullOutcomes = ["changed", "unchanged", "failed"] as const;
export type FeedPullOutcome = (typeof feedPullOutcomes)[number];

/**
 * Feed URLs (`POST /feeds`): a file of the account's listings (NDJSON or a JSON array) the service
 * pulls every `interval_minutes` and applies as an import (`listing_imports.feed_id`), written as
 * the key that registered it. `next_pull_at` orders the scheduler's claims; `pull_claimed_at` is set
 * while a pull is queued or running (null otherwise), so one pull of a feed runs at a time.
 */
export const listingFeeds = pgTable(
  "listing_feeds",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The key that registered it: its imports are written as that key's (revoked, the pulls fail). */
    keyId: text("key_id").notNull(),
    url: text("url").notNull(),
    mode: text("mode", { enum: importModes }).notNull().default("upsert"),
    maxWithdrawals: integer("max_withdrawals"),
    intervalMinutes: integer("interval_minutes").notNull(),
    /** The validators of the last file imported, sent back as `If-None-Match` / `If-Modified-Since`. */
    etag: text("etag"),
    lastModified: text("last_modified"),
    nextPullAt: timestamp("next_pull_at", { withTimezone: true }).notNull(),
    pullClaimedAt: timestamp("pull_claimed_at", { withTimezone: true }),
    lastPullAt: timestamp("last_pull_at", { withTimezone: true }),
    lastPullOutcome: text("last_pull_outcome", { enum: feedPullOutcomes }),
    lastPullHttpStatus: integer("last_pull_http_status"),
    lastPullErrorCode: text("last_pull_error_code"),
    lastPullImportId: text("last_pull_import_id"),
    /** Since when every pull has failed (null after one that did not). */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    /** When the owner was mailed about the current failing streak (null: not yet, or no streak). */
    failureReportedAt: timestamp("failure_reported_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("listing_feeds_account_idx").on(t.accountId, t.createdAt), index("listing_feeds_due_idx").on(t.nextPullAt)],
);

export type ListingFeed = typeof listingFeeds.$inferSelect;
