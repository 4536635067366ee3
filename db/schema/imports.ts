import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

export const listingImportStatuses = ["queued", "running", "completed", "cancelled", "failed", "refused"] as const;
export type ListingImportStatus = (typeof listingImportStatuses)[number];

/** The statuses of an import not yet ended: one of them per account at a time. */
export const pendingImportStatuses: ListingImportStatus[] = ["queued", "running"];

/** Why an import ended `failed`: the key it writes as may write no more. */
export const importFailures = ["key_revoked", "key_expired", "account_inactive"] as const;
export type ImportFailure = (typeof importFailures)[number];

/** `upsert` applies the lines; `full` also withdraws the account's active listings whose ref the file lacks. */
export const importModes = ["upsert", "full"] as const;
export type ImportMode = (typeof importModes)[number];

/** Why an import was `refused` before writing anything: a full import over its cap of withdrawals. */
export interface ImportRefusal {
  code: "too_many_withdrawals";
  withdrawals: number;
  limit: number;
}

/**
 * Bulk imports (`POST /listings/imports`): NDJSON, one `PUT /listings/ref/{ref}` body a line. The
 * lines come in the body (kept in `body`) or in a file sent with `POST /uploads` (`upload_key`,
 * read from file storage by the job). One import per account is queued or running at a time.
 */
export const listingImports = pgTable(
  "listing_imports",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The key that sent it: the lines are written as that key's calls would be. */
    keyId: text("key_id").notNull(),
    status: text("status", { enum: listingImportStatuses }).notNull().default("queued"),
    body: text("body"),
    uploadKey: text("upload_key"),
    total: integer("total").notNull(),
    mode: text("mode", { enum: importModes }).notNull().default("upsert"),
    /** A full import's cap on withdrawals as sent; null: half the active listings with a ref. */
    maxWithdrawals: integer("max_withdrawals"),
    /** Why a `refused` import wrote nothing; null otherwise. */
    refusal: jsonb("refusal").$type<ImportRefusal>(),
    /** The feed (`listing_feeds`) whose pull made it; null for one sent to `POST /listings/imports`. Kept after the feed is deleted. */
    feedId: text("feed_id"),
    /** Why a `failed` import ended (`importFailures`); null otherwise. */
    errorCode: text("error_code", { enum: importFailures }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    /** When it ended: completed, cancelled or failed. */
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    index("listing_imports_account_idx").on(t.accountId, t.createdAt),
    // A feed's import still queued or running (one per account at a time) holds its next pull back.
    index("listing_imports_feed_idx")
      .on(t.feedId)
      .where(sql`feed_id is not null and status in ('queued', 'running')`),
    uniqueIndex("listing_imports_pending_idx")
      .on(t.accountId)
      .where(sql`status in ('queued', 'running')`),
  ],
);

export type ListingImport = typeof listingImports.$inferSelect;

/** How a line ended; `stale`: its `source_updated_at` was older than the listing's, nothing written. */
export const listingImportOutcomes = ["created", "updated", "unchanged", "refused", "stale", "withdrawn"] as const;
export type ListingImportOutcome = (typeof listingImportOutcomes)[number];

/**
 * One row per line applied (and, after a full import's lines, one per listing it withdrew, numbered
 * after the last line), written in the transaction that applies it: the import resumes after
 * the last committed line, and the primary key refuses a line written twice.
 */
export const listingImportLines = pgTable(
  "listing_import_lines",
  {
    importId: text("import_id")
      .notNull()
      .references(() => listingImports.id, { onDelete: "cascade" }),
    line: integer("line").notNull(),
    externalRef: text("external_ref"),
    outcome: text("outcome", { enum: listingImportOutcomes }).notNull(),
    listingCode: text("listing_code"),
    /** A refused line's problem code (`validation_failed`, `listing_busy`, `malformed_json`...). */
    errorCode: text("error_code"),
    /** The refusal's parameters and field errors, rendered in the reader's language. */
    problem: jsonb("problem").$type<{ params: Record<string, string | number>; errors: unknown[] }>(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.line] })],
);
