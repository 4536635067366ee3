import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { jobs } from "@/db/schema";
import { newId } from "@/lib/base/ids";
import { cronDedupeKey, type JobDefinition } from "@/lib/infra/jobs/define";
import { enqueue } from "@/lib/infra/jobs/enqueue";
import { createDispatchSweep } from "@/inngest/functions/dispatch-sweep";
import { createJobFunction } from "@/inngest/functions/run-job";
import { jobEvent as dispatchedEvent } from "@/inngest/dispatch";
import { processImportJob } from "@/lib/adapters/jobs/import-jobs";
import { processPhotosJob } from "@/lib/adapters/jobs/photo-jobs";
import { retentionJob } from "@/lib/adapters/jobs/retention-job";
import { at, jobRow, plusSeconds, recordingJob, rowsNamed } from "./fixtures";

const t0 = at("2031-05-01T12:00:00Z");

/** A clock the mocked sleeps move forward, so retries need no real waiting. */
function testClock(start: Date) {
  let current = start;
  return { now: () => current, set: (iso: string) => (current = new Date(iso)) };
}

function engineFor(job: JobDefinition, clock: ReturnType<typeof testClock>) {
  return new InngestTestEngine({ function: createJobFunction(job, { database, now: clock.now, jobs: [job] }) });
}

const jobEvent = (job: JobDefinition, jobId: string) => ({ name: `jobs/${job.name}`, data: { jobId } });

describe("Inngest job functions", () => {
  it("run the row named by the event through the job's handler once", async () => {
    const { job, calls } = recordingJob("inngest-once");
    const { id } = await enqueue(job, { value: "via inngest" }, { runAt: t0 });

    const { result } = await engineFor(job, testClock(t0)).execute({ events: [jobEvent(job, id)] });

    expect(result).toEqual({ id, name: job.name, attempt: 1, status: "done", result: { echoed: "via inngest" } });
    expect(calls.map((call) => call.payload)).toEqual([{ value: "via inngest" }]);
    expect(await jobRow(id)).toMatchObject({ status: "done", attempts: 1 });
  });

  it("sleep until each retry of the job's schedule, with the same bookkeeping as the embedded runner", async () => {
    const { job, calls } = recordingJob("inngest-retry", {
      delaysSeconds: [60, 300],
      fail: (attempt) => (attempt < 3 ? new Error(`attempt ${attempt} failed`) : undefined),
    });
    const { id } = await enqueue(job, {}, { runAt: t0 });
    const clock = testClock(t0);

    const { result, ctx } = await engineFor(job, clock).execute({
      events: [jobEvent(job, id)],
      steps: [
        { id: "retry-1", handler: () => clock.set("2031-05-01T12:01:00Z") },
        { id: "retry-2", handler: () => clock.set("2031-05-01T12:06:00Z") },
      ],
    });

    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("retry-1", plusSeconds(t0, 60).toISOString());
    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("retry-2", plusSeconds(t0, 360).toISOString());
    expect(result).toMatchObject({ id, status: "done", attempt: 3 });
    expect(calls.map((call) => call.ctx.job.attempt)).toEqual([1, 2, 3]);
    expect(await jobRow(id)).toMatchObject({ status: "done", attempts: 3, lastError: null });
  });

  it("end with the row failed once the schedule is spent", async () => {
    const { job } = recordingJob("inngest-fail", { delaysSeconds: [60], fail: (attempt) => new Error(`attempt ${attempt} failed`) });
    const { id } = await enqueue(job, {}, { runAt: t0 });
    const clock = testClock(t0);

    const { result } = await engineFor(job, clock).execute({
      events: [jobEvent(job, id)],
      steps: [{ id: "retry-1", handler: () => clock.set("2031-05-01T12:01:00Z") }],
    });

    expect(result).toMatchObject({ id, status: "failed", attempt: 2, error: "Error: attempt 2 failed" });
    expect(await jobRow(id)).toMatchObject({ status: "failed", attempts: 2 });
  });

  it("wait while another run holds the row, then take it over once its lease expired", async () => {
    const { connection: db } = await database();
    const { job, calls } = recordingJob("inngest-held", { delaysSeconds: [60] });
    const id = newId("job");
    const lockedUntil = plusSeconds(t0, 600);
    await db.insert(jobs).values({ id, name: job.name, payload: {}, status: "running", attempts: 1, runAt: t0, lockedUntil });
    const clock = testClock(t0);

    const { result, ctx } = await engineFor(job, clock).execute({
      events: [jobEvent(job, id)],
      steps: [{ id: "wait-1", handler: () => clock.set(lockedUntil.toISOString()) }],
    });

    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("wait-1", lockedUntil.toISOString());
    expect(result).toMatchObject({ id, status: "done", attempt: 2 });
    expect(calls).toHaveLength(1);
  });

  it("do nothing for a row that finished already or never committed", async () => {
    const { job, calls } = recordingJob("inngest-gone");
    const missing = newId("job");
    const { result } = await engineFor(job, testClock(t0)).execute({ events: [jobEvent(job, missing)] });
    expect(result).toEqual({ id: missing, status: "gone" });
    expect(calls).toHaveLength(0);
  });

  it("turn a cron trigger into one recorded occurrence and run it", async () => {
    const { job, calls } = recordingJob("inngest-cron", { cron: "0 5 * * *" });
    const { result } = await engineFor(job, testClock(t0)).execute({
      events: [{ name: "inngest/scheduled.timer", data: { cron: "0 5 * * *" } }],
    });

    const rows = await rowsNamed(job.name);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "done", dedupeKey: cronDedupeKey(job.name), payload: {} });
    expect(result).toMatchObject({ id: rows[0].id, status: "done" });
    expect(calls).toHaveLength(1);
  });
});

describe("Inngest per-account concurrency", () => {
  it("caps the runs of account-scoped jobs per account, in one group across their functions, and leaves system jobs uncapped", () => {
    const perAccount = [{ scope: "env", key: '"job-account:" + event.data.accountId', limit: 2 }];
    expect(createJobFunction(processImportJob).opts.concurrency).toEqual(perAccount);
    expect(createJobFunction(processPhotosJob).opts.concurrency).toEqual(perAccount);
    expect(createJobFunction(retentionJob).opts.concurrency).toBeUndefined();
  });

  it("sends the account with the event of an account's job, and no account with a system job's", () => {
    expect(dispatchedEvent({ id: "job_a", name: "listings.import", accountId: "acct_1" })).toEqual({
      name: "jobs/listings.import",
      data: { jobId: "job_a", accountId: "acct_1" },
    });
    expect(dispatchedEvent({ id: "job_b", name: "retention", accountId: null })).toEqual({
      name: "jobs/retention",
      data: { jobId: "job_b" },
    });
  });

  it("runs an account's job from its event as any other", async () => {
    const { job, calls } = recordingJob("inngest-account");
    const { id } = await enqueue(job, { value: "mine" }, { runAt: t0, accountId: "acct_inngest" });
    const event = { name: `jobs/${job.name}`, data: { jobId: id, accountId: "acct_inngest" } };
    const { result } = await engineFor(job, testClock(t0)).execute({ events: [event] });
    expect(result).toMatchObject({ id, status: "done" });
    expect(calls[0].ctx.job).toEqual({ id, name: job.name, attempt: 1, accountId: "acct_inngest", renewLease: expect.any(Function) });
  });
});

describe("Inngest dispatch sweep", () => {
  it("sends the events of overdue queued rows and of rows whose run died, not of fresh or future ones", async () => {
    const { connection: db } = await database();
    const { job } = recordingJob("sweep");
    const row = (status: "queued" | "running", runAt: Date, lockedUntil: Date | null = null, accountId: string | null = null) => ({
      id: newId("job"),
      name: job.name,
      accountId,
      payload: {},
      status,
      runAt,
      lockedUntil,
      attempts: status === "running" ? 1 : 0,
    });
    const rows = {
      lost: row("queued", plusSeconds(t0, -120)),
      fresh: row("queued", plusSeconds(t0, -5)),
      future: row("queued", plusSeconds(t0, 3600)),
      died: row("running", plusSeconds(t0, -900), plusSeconds(t0, -300), "acct_sweep"),
      busy: row("running", plusSeconds(t0, -60), plusSeconds(t0, 500)),
    };
    await db.insert(jobs).values(Object.values(rows));

    const sweep = createDispatchSweep({ database, now: () => t0, names: () => [job.name] });
    const { result, ctx } = await new InngestTestEngine({ function: sweep }).execute({
      events: [{ name: "inngest/scheduled.timer", data: {} }],
      // The sending itself is Inngest's; the engine would otherwise try to reach it.
      steps: [{ id: "dispatch-overdue", handler: () => ({ ids: [] }) }],
    });

    expect(result).toEqual({ dispatched: 2 });
    expect(ctx.step.sendEvent).toHaveBeenCalledWith("dispatch-overdue", [
      { name: `jobs/${job.name}`, data: { jobId: rows.died.id, accountId: "acct_sweep" } },
      { name: `jobs/${job.name}`, data: { jobId: rows.lost.id } },
    ]);
  });
});
