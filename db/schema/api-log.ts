import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Partitioned by day on `created_at` (migration 0017; lib/adapters/worker/partitions.ts): the primary
 * key must hold the partition key, and `id`, drawn from one sequence, stays unique on its own.
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
    // Bodies are kept 30 days, the rest of the row 365 days (retention jobs).
    requestBody: jsonb("request_body"),
    responseBody: jsonb("response_body"),
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
