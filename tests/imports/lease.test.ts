import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { events, jobs, listingImportLines, listingImports, listings } from "@/db/schema";
import { processImportJob } from "@/lib/adapters/jobs/import-jobs";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { processImport } from "@/lib/domain/imports/process-import";
import { defineJob } from "@/lib/infra/jobs/define";
import { claimDueJobs, renewJobLease } from "@/lib/infra/jobs/store";
import { ownDatabaseOnPostgres } from "../support/child-database";
import { accountWithKey } from "../support/fixtures";
import { validApartment } from "../support/listings";
import { ndjson, postImport } from "./support";

// The runners of these tests claim at moments ahead of the real time: on PostgreSQL they get a
// database of their own, so they never take up other files' import jobs.
ownDatabaseOnPostgres("test_import_lease");

const seconds = (from: Date, n: number) => new Date(from.getTime() + n * 1000);
const lanes = 4;

/** 1 000 lines, 4 of them listings to create, the others refused at once (not JSON): about 250 a lane, three transactions each. */
const importLines = () =>
  ndjson(Array.from({ length: 1000 }, (_, i) => (i % 250 === 0 ? validApartment({ external_ref: `lease-${i}` }) : "{not json")));

/** Runs the due import jobs at `now` until none is left. */
async function runImportsAt(now: Date): Promise<number> {
  let ran = 0;
  for (;;) {
    const summary = await runDueJobs({ database: await database(), now, jobs: [processImportJob] });
    if (summary.ran === 0) return ran;
    ran += summary.ran;
  }
}

describe("the import job's lease", () => {
  it("of a run whose process died ends within a minute: another runner takes the import up, every line applied once", async () => {
    const { key, account } = await accountWithKey();
    const posted = await postImport(key, importLines());
    const id = posted.json!.data.id as string;
    const db = (await database()).connection;

    // The "dead" run: the real job, claimed by the real runner, whose lanes each stop for good (the
    // process is gone) after their first transaction of lines, before renewing for the second.
    let stuck = 0;
    let allStuck: () => void = () => {};
    const dead = new Promise<void>((resolve) => (allStuck = resolve));
    const dyingJob = defineJob({
      ...processImportJob,
      handler: (payload, ctx) => {
        let calls = 0;
        const renewLease = async () => {
          if (++calls <= lanes) return ctx.job.renewLease();
          if (++stuck === lanes) allStuck();
          return new Promise<boolean>(() => {});
        };
        return processImport({ ctx, input: { importId: payload.importId, budgetMs: 60_000, renewLease } });
      },
    });
    const claimedAt = new Date();
    void runDueJobs({ database: await database(), now: claimedAt, jobs: [dyingJob] });
    await dead;
    const applied = async () => (await db.select({ n: count() }).from(listingImportLines).where(eq(listingImportLines.importId, id)))[0].n;
    const atDeath = await applied();
    expect(atDeath).toBe(lanes * 100);

    // Within the lease, nobody takes it: the next import is still refused meanwhile.
    expect(await runImportsAt(seconds(claimedAt, 44))).toBe(0);
    expect(await applied()).toBe(atDeath);
    expect((await postImport(key, ndjson([validApartment({ external_ref: "next-1" })]))).json!.code).toBe("import_in_progress");

    // Past it (45 s), the next runner's pass resumes the import and completes it.
    expect(await runImportsAt(seconds(claimedAt, 46))).toBeGreaterThan(0);
    const [ended] = await db.select().from(listingImports).where(eq(listingImports.id, id));
    expect(ended.status).toBe("completed");
    expect(await applied()).toBe(1000);
    const [owned] = await db.select({ n: count() }).from(listings).where(eq(listings.accountId, account.id));
    expect(owned.n).toBe(4);
    const completed = await db
      .select({ data: events.data })
      .from(events)
      .where(and(eq(events.accountId, account.id), eq(events.type, "import.completed")));
    expect(completed.map((event) => event.data)).toEqual([
      {
        id,
        status: "completed",
        lines: { total: 1000, done: 1000, created: 4, updated: 0, unchanged: 0, refused: 996, stale: 0, withdrawn: 0 },
      },
    ]);
  });

  it("is the live run's as long as it renews: another runner's claim after the first term finds nothing, and wins once it lapses", async () => {
    const { key } = await accountWithKey();
    await postImport(key, ndjson([validApartment({ external_ref: "renewed-1" })]));
    const db = (await database()).connection;
    const names = [processImportJob.name];
    const leases = { [processImportJob.name]: processImportJob.leaseSeconds! };
    const claimedAt = new Date();
    const [held] = await claimDueJobs(db, { names, now: claimedAt, limit: 1, leases });
    expect(held.lockedUntil).toEqual(seconds(claimedAt, 45));

    expect(await renewJobLease(db, held, { now: seconds(claimedAt, 30), seconds: 45 })).toBe(true);
    expect(await claimDueJobs(db, { names, now: seconds(claimedAt, 50), limit: 1, leases })).toEqual([]);
    const [taken] = await claimDueJobs(db, { names, now: seconds(claimedAt, 76), limit: 1, leases });
    expect(taken.id).toBe(held.id);
    // The first run, late, learns it has lost the job: its renewal changes nothing.
    expect(await renewJobLease(db, held, { now: seconds(claimedAt, 77), seconds: 45 })).toBe(false);
    const [row] = await db.select().from(jobs).where(eq(jobs.id, held.id));
    expect(row.lockedUntil).toEqual(seconds(claimedAt, 76 + 45));
    expect(await runImportsAt(seconds(claimedAt, 200))).toBeGreaterThan(0);
  });
});
