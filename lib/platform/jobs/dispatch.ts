import { setTimeout as sleep } from "node:timers/promises";
import { eq } from "drizzle-orm";
import { inngest } from "@/inngest/client";
import { database, type Database } from "@/db";
import { jobs } from "@/db/schema";
import { logger } from "@/lib/platform/logger";
import { findOverdueJobs } from "./store";

/** The Inngest event that runs one jobs row: `jobs/<name>` with the row's id. */
export const jobEventName = (name: string): `jobs/${string}` => `jobs/${name}`;

/**
 * How long a due row may wait for its own event before the sweep sends another. Shorter would race
 * the normal path and start needless duplicate runs (harmless: the claim lets only one through).
 */
export const dispatchGraceSeconds = 60;

export interface JobEvent {
  name: `jobs/${string}`;
  data: { jobId: string };
  ts?: number;
}

export function jobEvent(job: { id: string; name: string; runAt?: Date }): JobEvent {
  const event: JobEvent = { name: jobEventName(job.name), data: { jobId: job.id } };
  // A future `ts` makes Inngest start the run at that time.
  if (job.runAt && job.runAt.getTime() > Date.now()) event.ts = job.runAt.getTime();
  return event;
}

/**
 * Tells Inngest about committed rows. A failed send loses nothing: the row is in the table and
 * the dispatch sweep sends it again once it is overdue.
 */
export async function sendJobEvents(events: JobEvent[]): Promise<boolean> {
  if (events.length === 0) return true;
  try {
    await inngest.send(events);
    return true;
  } catch (error) {
    logger.warn("job events not sent; the dispatch sweep will send them", { error, count: events.length });
    return false;
  }
}

// Checks after a caller's transaction: the row becomes visible once it commits; a rolled-back
// row never does. Past the last check the sweep takes over.
const commitChecksMs = [50, 500, 5000];

/**
 * Sends the event of a row enqueued inside a transaction once that transaction has committed.
 * Resolves true when sent, false when the row never showed up or was no longer queued.
 */
export async function sendAfterCommit(
  job: { id: string; name: string; runAt: Date },
  checksMs: readonly number[] = commitChecksMs,
): Promise<boolean> {
  for (const waitMs of checksMs) {
    await sleep(waitMs, undefined, { ref: false });
    const [row] = await (await database()).db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, job.id));
    if (row) return row.status === "queued" && sendJobEvents([jobEvent(job)]);
  }
  return false;
}

/** Events for rows the Inngest path should have run by now (lost sends, runs that died). */
export async function overdueJobEvents(options: { database: Database; names: string[]; now?: Date; limit?: number }): Promise<JobEvent[]> {
  const rows = await findOverdueJobs(options.database.db, {
    names: options.names,
    now: options.now ?? new Date(),
    graceSeconds: dispatchGraceSeconds,
    limit: options.limit ?? 500,
  });
  return rows.map((row) => jobEvent(row));
}
