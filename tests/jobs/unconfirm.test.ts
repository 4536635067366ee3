import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { postgresError } from "@/db/errors";
import { listings } from "@/db/schema";
import { systemContext } from "@/lib/base/context";
import { unconfirmStaleListings } from "@/lib/domain/listings/unconfirm";
import { cronDedupeKey, nextOccurrence } from "@/lib/infra/jobs/define";
import { unconfirmListingsJob } from "@/lib/adapters/jobs/listing-jobs";
import { jobRegistry } from "@/lib/adapters/jobs/registry";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { accountWithKey } from "../support/fixtures";
import { activeListing } from "../support/listings";
import { plusSeconds, rowsNamed } from "./fixtures";
import { onPostgresRun } from "../support/engine";

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
    expect(jobRegistry).toContain(unconfirmListingsJob);
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

/** A new active listing whose last confirmation is 31 days before `now`. */
async function staleListing(now: Date) {
  const { key } = await accountWithKey();
  const listing = await activeListing(key);
  const { connection: db } = await database();
  await db
    .update(listings)
    .set({ confirmedAt: plusSeconds(now, -31 * 86_400) })
    .where(eq(listings.code, listing.code));
  return listing;
}

describe("unconfirmStaleListings", () => {
  it("fails on a database fault while locking a listing, rather than pass it over as busy", async () => {
    const now = new Date();
    const stale = await staleListing(now);
    const db = await database();
    // A read-only transaction finds the stale listings and refuses their lock (SQLSTATE 25006, a fault of no listing's making).
    const failure = await db.connection
      .transaction(async (tx) => {
        await tx.execute(sql`set transaction read only`);
        await unconfirmStaleListings({ ctx: { ...systemContext(db, { now }), db: tx } });
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(postgresError(failure)?.code).toBe("25006");
    expect(await statusOf(stale.code)).toBe("active");
  });

  // PostgreSQL only: PGlite runs one session, where locks never contend.
  it.skipIf(!onPostgresRun)("leaves a listing another write holds to the next run (PostgreSQL)", async () => {
    const now = new Date();
    const held = await staleListing(now);
    const db = await database();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked: () => void = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.connection.transaction(async (tx) => {
      await tx.execute(sql`select 1 from listings where code = ${held.code} for update`);
      locked();
      await released;
    });
    await isLocked;
    try {
      await unconfirmStaleListings({ ctx: systemContext(db, { now }) });
      expect(await statusOf(held.code)).toBe("active");
    } finally {
      release();
      await holder;
    }
    await unconfirmStaleListings({ ctx: systemContext(db, { now }) });
    expect(await statusOf(held.code)).toBe("unconfirmed");
  });
});
