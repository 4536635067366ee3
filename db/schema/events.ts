import { bigserial, index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * The outbox: every state change writes its event here in the same transaction. `seq` orders the
 * events; the public id is derived from it so that an id is also a cursor (GET /events?after=).
 * Partitioned by day on `created_at` (migration 0017): the primary key must hold the partition key;
 * `seq`, drawn from one sequence and never given by a writer, stays unique on its own.
 */
export const events = pgTable(
  "events",
  {
    seq: bigserial("seq", { mode: "number" }),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.seq, t.createdAt] }),
    index("events_account_seq_idx").on(t.accountId, t.seq),
    index("events_created_idx").on(t.createdAt),
  ],
);
