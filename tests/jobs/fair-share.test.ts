import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { database } from "@/db";
import { jobs } from "@/db/schema";
import { randomToken, newId } from "@/lib/base/ids";
import { defineJob, maxRunningJobsPerAccount } from "@/lib/infra/jobs/define";
import { enqueue } from "@/lib/infra/jobs/enqueue";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { accountWithKey } from "../support/fixtures";
import { ndjson, postImport } from "../imports/support";
import { validApartment } from "../support/listings";
import { at, jobRow, plusSeconds } from "./fixtures";

const t0 = at("2031-06-01T09:00:00Z");

/**
 * A job whose `hold` runs wait until the test releases them: an account's long work (the lines of
 * a large import) holding its runner slots for as long as the test needs, with no clock involved.
 */
function heldJob(label: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const job = defineJob({
    name: `test.${label}.${randomToken(8)}`,
    payload: z.object({ hold: z.boolean() }),
    retry: { delaysSeconds: [] },
    handler: async (payload) => {
      if (payload.hold) await released;
    },
  });
  return { job, release };
}

const someAccount = () => `acct_${randomToken(10)}`;
const statuses = async (ids: string[]) => Promise.all(ids.map(async (id) => (await jobRow(id)).status));
// The state a test waits for is reached within the pass's next poll (pollMs below); this only
// bounds how long a broken runner is waited for before the test fails.
const untilState = { timeout: 10_000, interval: 20 };

describe("fair work across accounts on the embedded runner", () => {
  it("runs another account's job while one account's long jobs fill their share, however many it has queued before it", async () => {
    const handle = await database();
    const { job, release } = heldJob("fair-backlog");
    const [accountA, accountB] = [someAccount(), someAccount()];
    // More of A's rows are due, and older, than the runner has slots: a FIFO batch would be all A's.
    const aRows: string[] = [];
    for (let i = 0; i < 12; i++) aRows.push((await enqueue(job, { hold: true }, { runAt: plusSeconds(t0, i), accountId: accountA })).id);
    const { id: bRow } = await enqueue(job, { hold: false }, { runAt: plusSeconds(t0, 30), accountId: accountB });

    const pass = runDueJobs({ database: handle, now: plusSeconds(t0, 60), jobs: [job], pollMs: 20 });
    try {
      await vi.waitFor(async () => expect((await jobRow(bRow)).status).toBe("done"), untilState);
      // B finished while A's oldest runs still hold the runner, and A never took more than its share.
      expect(await statuses(aRows)).toEqual([
        ...Array(maxRunningJobsPerAccount).fill("running"),
        ...Array(12 - maxRunningJobsPerAccount).fill("queued"),
      ]);
    } finally {
      release();
    }
    const summary = await pass;
    expect(summary).toMatchObject({ ran: 13, done: 13, failed: 0 });
    expect(await statuses(aRows)).toEqual(Array(12).fill("done"));
  });

  it("claims a job enqueued while another account's long job runs, in the same pass", async () => {
    const handle = await database();
    const { job, release } = heldJob("fair-later");
    const { id: aRow } = await enqueue(job, { hold: true }, { runAt: t0, accountId: someAccount() });

    const pass = runDueJobs({ database: handle, now: plusSeconds(t0, 60), jobs: [job], pollMs: 20 });
    try {
      await vi.waitFor(async () => expect((await jobRow(aRow)).status).toBe("running"), untilState);
      const { id: bRow } = await enqueue(job, { hold: false }, { runAt: plusSeconds(t0, 10), accountId: someAccount() });
      await vi.waitFor(async () => expect((await jobRow(bRow)).status).toBe("done"), untilState);
      expect((await jobRow(aRow)).status).toBe("running");
    } finally {
      release();
    }
    expect(await pass).toMatchObject({ ran: 2, done: 2 });
  });

  it("counts an account's rows another runner holds against its cap, and leaves rows of no account uncapped", async () => {
    const handle = await database();
    const { job } = heldJob("fair-held");
    const [accountA, accountB] = [someAccount(), someAccount()];
    const now = plusSeconds(t0, 60);
    // Two rows of A under a live lease: another instance is running them.
    await handle.connection.insert(jobs).values(
      Array.from({ length: maxRunningJobsPerAccount }, () => ({
        id: newId("job"),
        name: job.name,
        payload: { hold: false },
        accountId: accountA,
        status: "running" as const,
        attempts: 1,
        runAt: t0,
        lockedUntil: plusSeconds(now, 300),
      })),
    );
    const { id: aQueued } = await enqueue(job, { hold: false }, { runAt: t0, accountId: accountA });
    const { id: bQueued } = await enqueue(job, { hold: false }, { runAt: plusSeconds(t0, 1), accountId: accountB });
    const system = await Promise.all(Array.from({ length: 3 }, async () => (await enqueue(job, { hold: false }, { runAt: t0 })).id));

    const summary = await runDueJobs({ database: handle, now, jobs: [job] });
    expect(summary.outcomes.map((outcome) => outcome.id).sort()).toEqual([bQueued, ...system].sort());
    expect(await jobRow(aQueued)).toMatchObject({ status: "queued", attempts: 0 });
  });
});

describe("jobs know their account", () => {
  it("an import's job row carries the importing account", async () => {
    const { key, account } = await accountWithKey();
    const posted = await postImport(key, ndjson([validApartment({ external_ref: `fair-${randomToken(6)}` })]));
    expect(posted.status).toBe(202);
    const { connection: db } = await database();
    const rows = await db.select().from(jobs).where(eq(jobs.accountId, account.id));
    expect(rows.map((row) => [row.name, row.payload])).toEqual([["listings.import", { importId: posted.json!.data.id }]]);
  });

  it("an account-scoped job is refused without its account, before anything is written", async () => {
    const job = defineJob({
      name: `test.scoped.${randomToken(8)}`,
      payload: z.object({}),
      accountScoped: true,
      retry: { delaysSeconds: [] },
      handler: async () => null,
    });
    await expect(enqueue(job, {})).rejects.toThrow(/enqueue it with its accountId/);
    const { connection: db } = await database();
    expect(await db.select().from(jobs).where(eq(jobs.name, job.name))).toEqual([]);
  });
});
