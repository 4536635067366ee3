import type { Database } from "@/db";
import { clockFrom, systemContext, type Clock } from "@/lib/base/context";
import { logger } from "@/lib/base/logger";
import { SpanStatusCode, traced } from "@/lib/base/tracing";
import type { JobDefinition } from "@/lib/infra/jobs/define";
import { defaultJobLeaseSeconds, markDone, markFailed, markRetry, renewJobLease, type JobRow } from "@/lib/infra/jobs/store";

/** What became of one attempt; plain JSON, so it can also be an Inngest step's output. */
export type JobOutcome =
  | { id: string; name: string; attempt: number; status: "done"; result: unknown }
  | { id: string; name: string; attempt: number; status: "retrying"; runAt: string; error: string }
  | { id: string; name: string; attempt: number; status: "failed"; error: string };

const secretPatterns: [RegExp, string][] = [
  [/svc_(?:test|live)_[A-Za-z0-9]+/g, "svc_***"],
  [/whsec_[A-Za-z0-9+/=_-]+/g, "whsec_***"],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, "$1 ***"],
  [/(\w+:\/\/[^:/\s@]+:)[^@\s]+@/g, "$1***@"],
  [/\b(password|secret|token)(["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, "$1$2***"],
];

/** `last_error` is shown to operators: the message only, secrets masked, bounded in size. */
function describeJobError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const masked = secretPatterns.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
  return masked.length > 1000 ? `${masked.slice(0, 1000)}…` : masked;
}

/**
 * Runs one claimed row through its job's handler and records the outcome on the row: done, queued
 * again after the job's next retry delay, or failed once the attempts are spent.
 */
export function executeJob(input: ExecuteInput): Promise<JobOutcome> {
  const { row } = input;
  // A span per job run, whichever engine runs it; the handler's queries and services are its children.
  return traced(`job ${row.name}`, { "job.name": row.name, "job.id": row.id, "job.attempt": row.attempts }, async (span) => {
    const outcome = await runJob(input);
    span.setAttribute("job.outcome", outcome.status);
    if (outcome.status !== "done") span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
    return outcome;
  });
}

interface ExecuteInput {
  database: Database;
  job: JobDefinition;
  row: JobRow;
  now: Date;
  /** The pass's clock, shared by its jobs; the job's own from `now` otherwise. */
  clock?: Clock;
}

/**
 * The run's `renewLease`: renews the row's lease once a third of it has passed since the claim or
 * the last renewal, so a handler may call it before every piece of work. Calls made together share
 * one renewal; once the row is found to be another run's, every later call answers false.
 */
function leaseRenewer(input: {
  database: Database;
  job: JobDefinition;
  row: JobRow;
  claimedAt: Date;
  clock: Clock;
}): () => Promise<boolean> {
  const seconds = input.job.leaseSeconds ?? defaultJobLeaseSeconds;
  let renewedAt = input.claimedAt.getTime();
  let held = Promise.resolve(true);
  return () => {
    const now = input.clock();
    if (now.getTime() - renewedAt >= (seconds * 1000) / 3) {
      renewedAt = now.getTime();
      held = held.then((still) => still && renewJobLease(input.database.connection, input.row, { now, seconds }));
    }
    return held;
  };
}

async function runJob(input: ExecuteInput): Promise<JobOutcome> {
  const { database, job, row, now, clock } = input;
  const base = { id: row.id, name: row.name, attempt: row.attempts };
  const fail = async (error: string): Promise<JobOutcome> => {
    await markFailed(database.connection, row, { now, error });
    logger.warn("job failed", { job: row.name, jobId: row.id, attempt: row.attempts, error });
    return { ...base, status: "failed", error };
  };

  // A row reclaimed after its process died counts that lost attempt too.
  if (row.attempts > job.maxAttempts) return fail("Attempts exhausted: the last ones did not finish within their lease");
  const payload = job.payload.safeParse(row.payload);
  if (!payload.success) return fail(`Invalid payload: ${payload.error.issues.map((issue) => issue.message).join("; ")}`);

  try {
    const runClock = clock ?? clockFrom(now);
    const result = await job.handler(payload.data, {
      ...systemContext(database, { now, clock: runClock }),
      job: {
        id: row.id,
        name: row.name,
        attempt: row.attempts,
        accountId: row.accountId,
        renewLease: leaseRenewer({ database, job, row, claimedAt: now, clock: runClock }),
      },
    });
    await markDone(database.connection, row, now);
    return { ...base, status: "done", result: result ?? null };
  } catch (thrown) {
    const error = describeJobError(thrown);
    if (row.attempts >= job.maxAttempts) return fail(error);
    const delay = job.retry.delaysSeconds[row.attempts - 1];
    const runAt = new Date(now.getTime() + delay * 1000);
    await markRetry(database.connection, row, { runAt, error });
    logger.info("job will be retried", { job: row.name, jobId: row.id, attempt: row.attempts, runAt, error });
    return { ...base, status: "retrying", runAt: runAt.toISOString(), error };
  }
}
