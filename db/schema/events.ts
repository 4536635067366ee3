import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * The outbox: every state change writes its event here in the same transaction. `seq` orders the
 * events; the public id is derived from it so that an id is also a cursor (GET /events?after=).
 * Partitioned by ranges of `seq` (migration 0020, lib/adapters/jobs/event-partitions.ts): reads by
 * cursor (`seq > after`) open only the partitions at and after it, and a week's events are dropped
 * as one partition.
 */
export const events = pgTable(
  "events",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("events_account_seq_idx").on(t.accountId, t.seq), index("events_created_idx").on(t.createdAt)],
);
