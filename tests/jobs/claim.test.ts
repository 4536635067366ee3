import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { jobs } from "@/db/schema";
import { newId } from "@/lib/base/ids";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { claimDueJobs } from "@/lib/infra/jobs/store";
import { at, recordingJob } from "./fixtures";

const t0 = at("2031-04-01T08:00:00Z");

async function queueRows(name: string, count: number): Promise<string[]> {
  const { connection: db } = await database();
  const ids = Array.from({ length: count }, () => newId("job"));
  await db.insert(jobs).values(ids.map((id) => ({ id, name, payload: {}, runAt: t0 })));
  return ids;
}

// PGlite runs one session, so there the claims below run one after another and the test only shows
// that sequential claims never overlap; on PostgreSQL (DATABASE_URL) they truly run concurrently.
describe(`claiming due jobs (${process.env.DATABASE_URL ? "concurrent sessions on PostgreSQL" : "one PGlite session, sequential"})`, () => {
  it("skips rows another open transaction has claimed instead of waiting for it or taking them too", async () => {
    const { connection: db, driver } = await database();
    const { job } = recordingJob("claim");
    const ids = await queueRows(job.name, 40);
    const claim = (limit: number) => claimDueJobs(db, { names: [job.name], now: t0, limit });

    let second: string[] = [];
    const first = await db.transaction(async (tx) => {
      const mine = (await claimDueJobs(tx, { names: [job.name], now: t0, limit: 10 })).map((row) => row.id);
      // On PostgreSQL this claim runs on another pooled connection while the transaction above
      // still holds its ten rows locked: SKIP LOCKED passes over them rather than blocking.
      if (driver === "postgres") second = (await claim(40)).map((row) => row.id);
      return mine;
    });
    if (driver === "pglite") second = (await claim(40)).map((row) => row.id);

    expect(first).toHaveLength(10);
    expect(second).toHaveLength(30);
    expect(new Set([...first, ...second])).toEqual(new Set(ids));
  });

  it("runs every job exactly once with several runners polling at the same time", async () => {
    const handle = await database();
    const { job, calls } = recordingJob("parallel");
    const ids = await queueRows(job.name, 60);

    const summaries = await Promise.all(
      Array.from({ length: 4 }, () => runDueJobs({ database: handle, now: t0, jobs: [job], concurrency: 5 })),
    );

    expect(summaries.reduce((sum, summary) => sum + summary.done, 0)).toBe(60);
    expect(calls.map((call) => call.ctx.job.id).sort()).toEqual([...ids].sort());
  });
});
