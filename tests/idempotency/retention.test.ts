import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { idempotencyKeys } from "@/db/schema";
import { newId } from "@/lib/base/ids";
import { applyRetentionRule } from "@/lib/adapters/jobs/retention";
import { retentionRules } from "@/lib/adapters/jobs/retention-rules";

describe("idempotency keys retention", () => {
  it("deletes rows expired more than a day ago and keeps the rest", async () => {
    const { connection: db } = await database();
    const keyId = newId("apiKey");
    const now = new Date();
    const expiredAgo = { longGone: 86_400_000 + 1000, recentlyExpired: 60_000, live: -60_000 };
    await db.insert(idempotencyKeys).values(
      Object.entries(expiredAgo).map(([label, ago]) => ({
        keyId,
        idempotencyKey: label,
        requestHash: "h",
        state: "done" as const,
        expiresAt: new Date(now.getTime() - ago),
      })),
    );
    const rule = retentionRules.find((r) => r.name === "idempotency_keys.expired")!;
    await applyRetentionRule(await database(), rule, now);
    const left = await db.select({ key: idempotencyKeys.idempotencyKey }).from(idempotencyKeys).where(eq(idempotencyKeys.keyId, keyId));
    expect(left.map((row) => row.key).sort()).toEqual(["live", "recentlyExpired"]);
  });
});
