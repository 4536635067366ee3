import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { events } from "@/db/schema";
import { applyRetentionRule } from "@/lib/adapters/worker/retention";
import { retentionRules } from "@/lib/adapters/worker/retention-rules";
import { accountWithKey } from "../support/fixtures";

const dayMs = 86_400_000;

describe("events retention", () => {
  it("deletes exactly the events older than 35 days", async () => {
    const { account } = await accountWithKey();
    const { connection: db } = await database();
    // Real time: on PostgreSQL other test files share the table, and their events are all recent.
    const now = new Date();
    const ages = { justExpired: 35 * dayMs + 1000, justKept: 35 * dayMs - 1000, old: 90 * dayMs, fresh: 0 };
    await db.insert(events).values(
      Object.entries(ages).map(([label, age]) => ({
        accountId: account.id,
        type: "listing.sold",
        data: { label },
        createdAt: new Date(now.getTime() - age),
      })),
    );

    const rule = retentionRules.find((r) => r.name === "events")!;
    expect(rule.keepDays).toBe(35);
    const result = await applyRetentionRule(await database(), rule, now);
    expect(result.affected).toBeGreaterThanOrEqual(2);

    const left = await db.select({ data: events.data }).from(events).where(eq(events.accountId, account.id));
    expect(left.map((row) => row.data.label).sort()).toEqual(["fresh", "justKept"]);
  });
});
