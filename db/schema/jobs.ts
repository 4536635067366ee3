import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: ["queued", "running", "done", "failed"] })
      .notNull()
      .default("queued"),
    // A queued or running job with a dedupe key is unique: recurring jobs are enqueued once.
    dedupeKey: text("dedupe_key"),
    // The account whose work this is (an import, a photo list); null for system work such as
    // retention. Runners cap the rows of one account running at once by it, so one account's burst
    // never takes every runner slot. No foreign key: runners only group by it.
    accountId: text("account_id"),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("jobs_due_idx").on(t.status, t.runAt),
    // The claim counts each candidate account's running rows: few rows, looked up by account.
    index("jobs_running_account_idx")
      .on(t.accountId)
      .where(sql`status = 'running'`),
    uniqueIndex("jobs_dedupe_idx")
      .on(t.dedupeKey)
      .where(sql`status in ('queued', 'running')`),
  ],
);
