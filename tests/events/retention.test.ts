import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { events } from "@/db/schema";
import { applyPartitionRetention, ensurePartitions, partitionedTables } from "@/lib/adapters/worker/partitions";
import { accountWithKey } from "../support/fixtures";

const dayMs = 86_400_000;

describe("events retention", () => {
  it("drops the weeks of events wholly older than 35 days, and deletes DEFAULT's events older than 35 days", async () => {
    const { account } = await accountWithKey();
    const handle = await database();
    const { connection: db } = handle;
    // Real time: on PostgreSQL other test files share the table, and their events are all recent.
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    await ensurePartitions(handle, "events", ago(44 * dayMs), ago(34 * dayMs));
    // `old` is in DEFAULT (no partition that far back); `justKept` is younger than the limit, so its week is not past it.
    const ages = { wholeWeekOlder: 43 * dayMs, justKept: 35 * dayMs - 1000, old: 90 * dayMs, fresh: 0 };
    await db
      .insert(events)
      .values(
        Object.entries(ages).map(([label, age]) => ({ accountId: account.id, type: "listing.sold", data: { label }, createdAt: ago(age) })),
      );

    const target = partitionedTables.find((candidate) => candidate.table === "events")!;
    expect(target.keepDays).toBe(35);
    await applyPartitionRetention(handle, target, now);

    const left = await db.select({ data: events.data }).from(events).where(eq(events.accountId, account.id));
    expect(left.map((row) => row.data.label).sort()).toEqual(["fresh", "justKept"]);
    const [{ present }] = await handle.rows<{ present: boolean }>(
      sql`select to_regclass('events_p' || to_char(date_trunc('week', ${ago(43 * dayMs).toISOString()}::timestamptz at time zone 'UTC'), 'YYYYMMDD')) is not null as present`,
    );
    expect(present).toBe(false);
  });
});
