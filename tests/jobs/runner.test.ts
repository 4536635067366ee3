import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { jobs } from "@/db/schema";
import { enqueue } from "@/lib/infra/jobs/enqueue";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { newId } from "@/lib/base/ids";
import { at, jobRow, plusSeconds, recordingJob, rowsNamed } from "./fixtures";

const t0 = at("2031-03-01T10:00:00Z");

describe("embedded job runner", () => {
  it("runs a due job once with its validated payload and marks it done", async () => {
    const handle = await database();
    const { job, calls } = recordingJob("once");
    const { id, created } = await enqueue(job, { value: "hello" }, { runAt: t0 });
    expect(created).toBe(true);

    const early = await runDueJobs({ database: handle, now: plusSeconds(t0, -1), jobs: [job] });
    expect(early.ran).toBe(0);

    const summary = await runDueJobs({ database: handle, now: t0, jobs: [job] });
    expect(summary).toMatchObject({ ran: 1, done: 1, retrying: 0, failed: 0 });
    expect(summary.outcomes[0]).toEqual({ id, name: job.name, attempt: 1, status: "done", result: { echoed: "hello" } });
    expect(calls.map((call) => call.payload)).toEqual([{ value: "hello" }]);
    expect(calls[0].ctx.job).toEqual({ id, name: job.name, attempt: 1, accountId: null, renewLease: expect.any(Function) });
    expect(calls[0].ctx.now).toEqual(t0);

    const again = await runDueJobs({ database: handle, now: plusSeconds(t0, 3600), jobs: [job] });
    expect(again.ran).toBe(0);
    expect(calls).toHaveLength(1);
    expect(await jobRow(id)).toMatchObject({ status: "done", attempts: 1, lockedUntil: null, finishedAt: t0 });
  });

  it("retries a failing job after each delay of its schedule, then marks it failed", async () => {
    const handle = await database();
    const { job, calls } = recordingJob("retry", {
      delaysSeconds: [60, 300],
      fail: (attempt) => new Error(`attempt ${attempt} refused with Authorization: Bearer svc_test_abc123 and whsec_s3cr3t`),
    });
    const { id } = await enqueue(job, {}, { runAt: t0 });

    const first = await runDueJobs({ database: handle, now: t0, jobs: [job] });
    expect(first.outcomes[0]).toMatchObject({ status: "retrying", attempt: 1, runAt: plusSeconds(t0, 60).toISOString() });
    expect(await jobRow(id)).toMatchObject({ status: "queued", attempts: 1, runAt: plusSeconds(t0, 60) });

    expect((await runDueJobs({ database: handle, now: plusSeconds(t0, 59), jobs: [job] })).ran).toBe(0);

    const second = await runDueJobs({ database: handle, now: plusSeconds(t0, 60), jobs: [job] });
    expect(second.outcomes[0]).toMatchObject({ status: "retrying", attempt: 2, runAt: plusSeconds(t0, 360).toISOString() });
    expect((await runDueJobs({ database: handle, now: plusSeconds(t0, 359), jobs: [job] })).ran).toBe(0);

    const third = await runDueJobs({ database: handle, now: plusSeconds(t0, 360), jobs: [job] });
    expect(third).toMatchObject({ ran: 1, failed: 1 });
    expect(calls.map((call) => call.ctx.job.attempt)).toEqual([1, 2, 3]);

    const row = await jobRow(id);
    expect(row).toMatchObject({ status: "failed", attempts: 3, finishedAt: plusSeconds(t0, 360), lockedUntil: null });
    expect(row.lastError).toContain("attempt 3 refused");
    expect(row.lastError).not.toContain("abc123");
    expect(row.lastError).not.toContain("s3cr3t");
    expect((await runDueJobs({ database: handle, now: plusSeconds(t0, 86_400), jobs: [job] })).ran).toBe(0);
  });

  it("gives a pass's jobs its moment as now and its clock running on from it, so a later batch reads the time it runs at", async () => {
    const handle = await database();
    const { job, calls } = recordingJob("clock", { tookMs: 50 });
    await enqueue(job, {}, { runAt: t0 });
    await enqueue(job, {}, { runAt: t0 });

    await runDueJobs({ database: handle, now: t0, jobs: [job], concurrency: 1 });
    expect(calls.map((call) => call.ctx.now)).toEqual([t0, t0]);
    const [first, second] = calls.map((call) => call.clockAt.getTime() - t0.getTime());
    expect(first).toBeGreaterThanOrEqual(0);
    expect(second).toBeGreaterThanOrEqual(first + 45);
  });

  it("reclaims a row left running by a process that died, once its lease has expired", async () => {
    const handle = await database();
    const { job, calls } = recordingJob("stuck", { delaysSeconds: [30] });
    const insertRunning = async (lockedUntil: Date) => {
      const id = newId("job");
      await handle.connection
        .insert(jobs)
        .values({ id, name: job.name, payload: { value: "v" }, status: "running", attempts: 1, runAt: t0, lockedUntil });
      return id;
    };
    const expired = await insertRunning(plusSeconds(t0, -1));
    const held = await insertRunning(plusSeconds(t0, 600));

    const summary = await runDueJobs({ database: handle, now: t0, jobs: [job] });
    expect(summary.outcomes.map((outcome) => [outcome.id, outcome.status, outcome.attempt])).toEqual([[expired, "done", 2]]);
    expect(calls).toHaveLength(1);
    expect(await jobRow(held)).toMatchObject({ status: "running", attempts: 1 });
  });

  it("fails a reclaimed row whose attempts are spent without running it again", async () => {
    const handle = await database();
    const { job, calls } = recordingJob("spent", { delaysSeconds: [30] });
    const id = newId("job");
    await handle.connection
      .insert(jobs)
      .values({ id, name: job.name, payload: {}, status: "running", attempts: 2, runAt: t0, lockedUntil: t0 });

    const summary = await runDueJobs({ database: handle, now: t0, jobs: [job] });
    expect(summary).toMatchObject({ ran: 1, failed: 1 });
    expect(calls).toHaveLength(0);
    expect(await jobRow(id)).toMatchObject({ status: "failed", attempts: 3 });
  });

  it("fails a row whose payload no longer matches the job's schema, without retrying", async () => {
    const handle = await database();
    const { job, calls } = recordingJob("invalid", { delaysSeconds: [30, 60] });
    const id = newId("job");
    await handle.connection.insert(jobs).values({ id, name: job.name, payload: { value: 42 }, runAt: t0 });

    const summary = await runDueJobs({ database: handle, now: t0, jobs: [job] });
    expect(summary).toMatchObject({ ran: 1, failed: 1 });
    expect(calls).toHaveLength(0);
    expect((await jobRow(id)).lastError).toMatch(/^Invalid payload/);
  });

  it("leaves rows of jobs it does not know to the runner that knows them", async () => {
    const handle = await database();
    const { job: known } = recordingJob("known");
    const { job: unknown } = recordingJob("unknown");
    const { id } = await enqueue(unknown, {}, { runAt: t0 });
    expect((await runDueJobs({ database: handle, now: t0, jobs: [known] })).ran).toBe(0);
    expect(await jobRow(id)).toMatchObject({ status: "queued", attempts: 0 });
  });

  it("rejects a payload that does not match the job's schema before writing anything", async () => {
    const { job } = recordingJob("reject");
    await expect(enqueue(job, { value: 42 as unknown as string })).rejects.toThrow();
    expect(await rowsNamed(job.name)).toEqual([]);
  });
});

describe("enqueue", () => {
  it("writes nothing when the caller's transaction rolls back, and the row when it commits", async () => {
    const { connection: db } = await database();
    const { job } = recordingJob("outbox");
    await expect(
      db.transaction(async (tx) => {
        await enqueue(job, { value: "lost" }, { tx, runAt: t0 });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await rowsNamed(job.name)).toEqual([]);

    const id = await db.transaction(async (tx) => (await enqueue(job, { value: "kept" }, { tx, runAt: t0 })).id);
    expect((await rowsNamed(job.name)).map((row) => [row.id, row.payload])).toEqual([[id, { value: "kept" }]]);
  });

  it("returns the pending row for a dedupe key instead of adding another, and adds one once it finished", async () => {
    const handle = await database();
    const { job, calls } = recordingJob("dedupe");
    const dedupeKey = `dedupe-${job.name}`;
    const first = await enqueue(job, { value: "a" }, { dedupeKey, runAt: t0 });
    const second = await enqueue(job, { value: "b" }, { dedupeKey, runAt: t0 });
    expect(second).toEqual({ id: first.id, name: job.name, accountId: null, runAt: t0, created: false });

    await runDueJobs({ database: handle, now: t0, jobs: [job] });
    const third = await enqueue(job, { value: "c" }, { dedupeKey, runAt: t0 });
    expect(third.created).toBe(true);
    expect(third.id).not.toBe(first.id);
    expect(calls.map((call) => call.payload.value)).toEqual(["a"]);
  });

  it("applies the schema's defaults to the stored payload", async () => {
    const { job } = recordingJob("defaults");
    const { id } = await enqueue(job, {}, { runAt: t0 });
    expect((await jobRow(id)).payload).toEqual({ value: "x" });
  });
});

describe("cron jobs", () => {
  it("keeps exactly one occurrence queued and queues the next one after it ran", async () => {
    const handle = await database();
    const { job, calls } = recordingJob("cron", { cron: "30 4 * * *" });
    const pending = async () => (await rowsNamed(job.name)).filter((row) => row.status === "queued").map((row) => row.runAt.toISOString());

    await runDueJobs({ database: handle, now: t0, jobs: [job] });
    await runDueJobs({ database: handle, now: plusSeconds(t0, 5), jobs: [job] });
    expect(await pending()).toEqual(["2031-03-02T04:30:00.000Z"]);
    expect(calls).toHaveLength(0);

    const summary = await runDueJobs({ database: handle, now: at("2031-03-02T04:30:00Z"), jobs: [job] });
    expect(summary).toMatchObject({ ran: 1, done: 1 });
    expect(calls[0].payload).toEqual({ value: "x" });
    expect(await pending()).toEqual(["2031-03-03T04:30:00.000Z"]);
    expect((await rowsNamed(job.name)).filter((row) => row.status === "done")).toHaveLength(1);
  });

  it("refuses a cron job definition that Inngest would read differently", () => {
    expect(() => recordingJob("six-fields", { cron: "0 30 4 * * *" })).toThrow(/five-field/);
    expect(() => recordingJob("bad-field", { cron: "99 4 * * *" })).toThrow();
  });
});
