import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Partitioned by week on `created_at` (migration 0017; lib/adapters/jobs/partitions.ts): the primary
 * key must hold the partition key, and `id`, drawn from one sequence, stays unique on its own. A row is
 * kept 365 days; its bodies, kept 30, are rows of `api_log_bodies` (migration 0018).
 */

export const apiLog = pgTable(
  "api_log",
  {
    id: bigserial("id", { mode: "number" }),
    requestId: text("request_id").notNull(),
    keyId: text("key_id"),
    accountId: text("account_id"),
    method: text("method").notNull(),
    path: text("path").notNull(),
    query: text("query"),
    status: integer("status").notNull(),
    durationMs: integer("duration_ms").notNull(),
    ip: text("ip"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createdAt] }),
    index("api_log_account_idx").on(t.accountId, t.createdAt),
    index("api_log_created_idx").on(t.createdAt),
    // The portal's log filtered by one key: that key's rows in time order, not a scan of the account's.
    index("api_log_key_idx").on(t.keyId, t.createdAt),
  ],
);

/**
 * The bodies of an API log row with any, partitioned by day on the row's `created_at` (migration
 * 0018): retention drops each day whole once it is 30 days old, and a read by `id` and `created_at`
 * opens one partition.
 */
export const apiLogBodies = pgTable(
  "api_log_bodies",
  {
    id: bigint("id", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    requestBody: jsonb("request_body"),
    responseBody: jsonb("response_body"),
  },
  (t) => [primaryKey({ columns: [t.id, t.createdAt] })],
);
