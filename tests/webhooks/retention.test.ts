import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { webhookDeliveries } from "@/db/schema";
import { applyRetentionRule } from "@/lib/adapters/jobs/retention";
import { retentionRules } from "@/lib/adapters/jobs/retention-rules";
import { deliveriesOf, keyedAccount, record, webhookOf } from "./support";

describe("retention of webhook deliveries", () => {
  it("deletes deliveries after 30 days and keeps younger ones", async () => {
    const account = await keyedAccount();
    const webhook = await webhookOf(account.ctx);
    await record(account.id);
    await record(account.id);
    const [older, younger] = (await deliveriesOf([webhook.id])).sort((a, b) => a.eventSeq! - b.eventSeq!);
    const now = new Date();
    const { connection: db } = await database();
    await db
      .update(webhookDeliveries)
      .set({ createdAt: new Date(now.getTime() - 31 * 86_400_000) })
      .where(eq(webhookDeliveries.id, older.id));
    await db
      .update(webhookDeliveries)
      .set({ createdAt: new Date(now.getTime() - 29 * 86_400_000) })
      .where(eq(webhookDeliveries.id, younger.id));
    const rule = retentionRules.find((candidate) => candidate.name === "webhook_deliveries")!;
    expect(rule.keepDays).toBe(30);
    const scoped = { ...rule, where: and(inArray(webhookDeliveries.webhookId, [webhook.id])) };
    expect(await applyRetentionRule(await database(), scoped, now)).toMatchObject({ affected: 1, complete: true });
    expect((await deliveriesOf([webhook.id])).map((row) => row.id)).toEqual([younger.id]);
  });
});
