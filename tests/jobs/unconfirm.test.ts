import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { listings } from "@/db/schema";
import { cronDedupeKey, nextOccurrence } from "@/lib/infra/jobs/define";
import { unconfirmListingsJob } from "@/lib/adapters/jobs/listing-jobs";
import { findJob } from "@/lib/adapters/jobs/registry";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { accountWithKey } from "../support/fixtures";
import { activeListing } from "../support/listings";
import { plusSeconds, rowsNamed } from "./fixtures";

const statusOf = async (code: string) => {
  const { connection: db } = await database();
  const [row] = await db.select({ status: listings.status }).from(listings).where(eq(listings.code, code));
  return row.status;
};

/** When the queued occurrence runs: whichever run of the runner queued it (the run database persists on PostgreSQL). */
async function queuedOccurrence(): Promise<Date> {
  await runDueJobs({ database: await database(), now: new Date(), jobs: [unconfirmListingsJob] });
  const [queued] = (await rowsNamed("listings.unconfirm")).filter((row) => row.status === "queued");
  return queued.runAt;
}

describe("listings.unconfirm", () => {
  it("is a registered cron job: runDueJobs queues its next occurrence", async () => {
    expect(findJob("listings.unconfirm")).toBe(unconfirmListingsJob);
    const now = new Date();
    await runDueJobs({ database: await database(), now, jobs: [unconfirmListingsJob] });
    const queued = (await rowsNamed("listings.unconfirm")).filter((row) => row.status === "queued");
    expect(queued).toEqual([expect.objectContaining({ dedupeKey: cronDedupeKey("listings.unconfirm") })]);
    expect(queued[0].runAt.getTime()).toBeGreaterThanOrEqual(nextOccurrence(unconfirmListingsJob.cron!, now).getTime());
  });

  it("at its occurrence, makes a listing unconfirmed 30 days after its last confirmation, and leaves a recent one active", async () => {
    const { key } = await accountWithKey();
    const stale = await activeListing(key);
    const recent = await activeListing(key);
    const { connection: db } = await database();
    const occurrence = await queuedOccurrence();
    await db
      .update(listings)
      .set({ confirmedAt: plusSeconds(occurrence, -31 * 86_400) })
      .where(eq(listings.code, stale.code));
    await db
      .update(listings)
      .set({ confirmedAt: plusSeconds(occurrence, -29 * 86_400) })
      .where(eq(listings.code, recent.code));

    const summary = await runDueJobs({ database: await database(), now: occurrence, jobs: [unconfirmListingsJob] });

    expect(summary.outcomes).toEqual([
      expect.objectContaining({ name: "listings.unconfirm", status: "done", result: { unconfirmed: expect.any(Number) } }),
    ]);
    expect(await statusOf(stale.code)).toBe("unconfirmed");
    expect(await statusOf(recent.code)).toBe("active");
  });
});
