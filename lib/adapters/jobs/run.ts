import type { Database } from "@/db";
import { clockFrom } from "@/lib/base/context";
import { cronDedupeKey, nextOccurrence, type JobDefinition } from "@/lib/infra/jobs/define";
import { claimDueJobs, claimJobById, insertJob, insertJobsIfAbsent, type JobLeases, type JobRow } from "@/lib/infra/jobs/store";
import { executeJob, type JobOutcome } from "./execute";
import { jobRegistry } from "./registry";

/*
 * How the application's jobs run, for every process that runs them: the embedded runner and the
 * worker (lib/adapters/worker/runner.ts), `npm run cli -- jobs:run`, and Inngest's functions (one row by id).
 */

export interface RunOptions {
  database: Database;
  now?: Date;
  /** The registry unless given (tests bring their own jobs). */
  jobs?: readonly JobDefinition[];
  /** Rows run at once: a slot freed by a finished run is filled by the next claim. */
  concurrency?: number;
  /**
   * The embedded runner's: while runs go on and slots are free, how often the pass looks for rows
   * that became due, each claim made at its own time (unless `now`). Without it the pass runs what
   * is due at its start, claiming again only as runs end.
   */
  pollMs?: number;
  /** A bound on the rows one pass claims, should handlers keep enqueueing due work. */
  maxJobs?: number;
  /** Asked before each claim: once it says so, the pass claims nothing more and ends with its runs (the runner is stopping). */
  stopping?: () => boolean;
  /** The rows being run, each from its claim until its outcome is written (what a stop past its grace gives back). */
  running?: Set<Running>;
}

export interface Running {
  row: JobRow;
  job: JobDefinition;
}

export interface RunSummary {
  ran: number;
  done: number;
  retrying: number;
  failed: number;
  outcomes: JobOutcome[];
}

const byName = (list: readonly JobDefinition[]) => new Map(list.map((job) => [job.name, job]));

/** The leases of the jobs that declare their own. */
const leasesOf = (list: readonly JobDefinition[]): JobLeases =>
  Object.fromEntries(list.flatMap((job) => (job.leaseSeconds === undefined ? [] : [[job.name, job.leaseSeconds]])));

/** Makes sure the next occurrence of every cron job is queued (one pending row each, by dedupe key). */
async function ensureCronOccurrences(database: Database, now: Date, list: readonly JobDefinition[] = jobRegistry): Promise<void> {
  const rows = list.flatMap((job) =>
    job.cron ? [{ name: job.name, payload: {}, runAt: nextOccurrence(job.cron, now), dedupeKey: cronDedupeKey(job.name) }] : [],
  );
  await insertJobsIfAbsent(database.connection, rows);
}

/** Runs at once in one process by default; above `maxRunningJobsPerAccount`, so one account never holds them all. */
const defaultConcurrency = 10;

/**
 * Runs every job due (the embedded runner's tick and `npm run cli -- jobs:run`) in a pool of
 * `concurrency` slots: each slot is filled again as its run ends, so one long run (an import's
 * lines) holds its own slot only. The claim caps each account's running rows, so another account's
 * due row is claimed while the first account's runs go on. The pass ends once nothing is due and
 * nothing runs. With `now` (a test, the CLI's `--now`) every claim is made at that moment; with
 * `pollMs` (the embedded runner) at the time of the claim; else at the pass's start. A failing job
 * is rescheduled after its delay, so it is not run twice in a pass of one moment.
 */
export async function runDueJobs(options: RunOptions): Promise<RunSummary> {
  const { database } = options;
  const start = options.now ?? new Date();
  const claimMoment = () => options.now ?? (options.pollMs === undefined ? start : new Date());
  // The pass's clock: a job claimed later in the pass reads the time it runs at, not the pass's
  // start (a photo job renews its listing's lease by it).
  const clock = clockFrom(start);
  const list = options.jobs ?? jobRegistry;
  const known = byName(list);
  const leases = leasesOf(list);
  const names = [...known.keys()];
  const concurrency = options.concurrency ?? defaultConcurrency;
  const maxJobs = options.maxJobs ?? 1000;
  await ensureCronOccurrences(database, start, list);

  const outcomes: JobOutcome[] = [];
  const errors: unknown[] = [];
  const inFlight = new Set<Promise<void>>();
  let claimed = 0;
  let claimFailed = false;
  const launch = (row: JobRow, now: Date) => {
    const run = { row, job: known.get(row.name)! };
    options.running?.add(run);
    const ended: Promise<void> = executeJob({ database, job: run.job, row, now, clock })
      .then(async (outcome) => {
        outcomes.push(outcome);
        // A cron job that just finished needs its next occurrence before the pass ends.
        if (run.job.cron) await ensureCronOccurrences(database, start, list);
      })
      .catch((error: unknown) => void errors.push(error))
      .finally(() => {
        options.running?.delete(run);
        inFlight.delete(ended);
      });
    inFlight.add(ended);
  };

  for (;;) {
    const free = concurrency - inFlight.size;
    const mayClaim = free > 0 && claimed < maxJobs && !claimFailed && !options.stopping?.();
    if (mayClaim) {
      const now = claimMoment();
      let rows: JobRow[] = [];
      try {
        rows = await claimDueJobs(database.connection, { names, now, limit: Math.min(free, maxJobs - claimed), leases });
      } catch (error) {
        // The pass claims no more but still ends with its runs, which `running` and a stop account for.
        errors.push(error);
        claimFailed = true;
        continue;
      }
      claimed += rows.length;
      for (const row of rows) launch(row, now);
      // Claim again at once: an account that reached its cap in this claim may have left its share
      // of the free slots to rows of other accounts.
      if (rows.length > 0) continue;
    }
    if (inFlight.size === 0) break;
    // A run ending frees a slot (and maybe its account's share); with slots free, rows may also
    // become due or be enqueued while the runs go on.
    await untilFirst([...inFlight], mayClaim ? options.pollMs : undefined);
  }
  if (errors.length > 0) throw errors[0];
  const count = (status: JobOutcome["status"]) => outcomes.filter((outcome) => outcome.status === status).length;
  return { ran: outcomes.length, done: count("done"), retrying: count("retrying"), failed: count("failed"), outcomes };
}

/** Resolves when the first of `runs` settles, or after `ms` when given. */
async function untilFirst(runs: Promise<void>[], ms: number | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = ms === undefined ? [] : [new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))];
  try {
    await Promise.race([...runs, ...elapsed]);
  } finally {
    clearTimeout(timer);
  }
}

export type RunByIdResult = JobOutcome | { id: string; status: "waiting"; until: string } | { id: string; status: "gone" };

/**
 * Runs one row by id (the Inngest path): the same claim, handler and bookkeeping as the embedded
 * runner. `waiting` when the row is not due yet or another run holds it; `gone` when it finished.
 */
export async function runJobById(options: {
  database: Database;
  id: string;
  now?: Date;
  jobs?: readonly JobDefinition[];
}): Promise<RunByIdResult> {
  const { database, id } = options;
  const now = options.now ?? new Date();
  const list = options.jobs ?? jobRegistry;
  const claim = await claimJobById(database.connection, { id, now, leases: leasesOf(list) });
  if ("gone" in claim) return { id, status: "gone" };
  if ("waitUntil" in claim) return { id, status: "waiting", until: claim.waitUntil.toISOString() };
  const job = byName(list).get(claim.claimed.name);
  if (!job) throw new Error(`Job "${claim.claimed.name}" is not in the registry of this process`);
  return executeJob({ database, job, row: claim.claimed, now });
}

/**
 * The row of a cron job's occurrence starting now (Inngest's cron trigger): the pending one when
 * there is one, so a schedule never runs twice at once.
 */
export async function enqueueCronOccurrence(options: { database: Database; job: JobDefinition; now?: Date }): Promise<string> {
  const { job } = options;
  const runAt = options.now ?? new Date();
  const { id } = await insertJob(options.database.connection, { name: job.name, payload: {}, runAt, dedupeKey: cronDedupeKey(job.name) });
  return id;
}
