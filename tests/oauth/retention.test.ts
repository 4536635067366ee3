import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { oauthCodes } from "@/db/schema";
import { applyRetentionRule } from "@/lib/adapters/jobs/retention";
import { retentionRules } from "@/lib/adapters/jobs/retention-rules";
import { consentCode, freshAccount, freshClient } from "./support";

describe("retention of authorization codes", () => {
  it("deletes codes a week after they expired and keeps younger ones, which a replay still needs", async () => {
    const client = await freshClient();
    const account = await freshAccount();
    const now = new Date();
    await consentCode(account.id, client.client_id, { now: new Date(now.getTime() - 8 * 86_400_000) });
    await consentCode(account.id, client.client_id, { now: new Date(now.getTime() - 6 * 86_400_000) });
    const rule = retentionRules.find((candidate) => candidate.name === "oauth_codes.expired")!;
    const scoped = { ...rule, where: eq(oauthCodes.accountId, account.id) };
    expect(await applyRetentionRule(await database(), scoped, now)).toMatchObject({ affected: 1, complete: true });
    const { connection: db } = await database();
    const left = await db.select().from(oauthCodes).where(eq(oauthCodes.accountId, account.id));
    expect(left.map((row) => Math.round((now.getTime() - row.expiresAt.getTime()) / 86_400_000))).toEqual([6]);
  });
});
