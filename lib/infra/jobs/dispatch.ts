import type { Database } from "@/db";
import { logger } from "@/lib/base/logger";
import { processSlot } from "@/lib/base/process-registry";
import { findOverdueJobs } from "./store";

/** A committed jobs row, as a dispatcher needs it to start its run. */
export interface DispatchedJob {
  id: string;
  name: string;
  /** The account whose work it is; null or absent for system work. */
  accountId?: string | null;
  /** Not before this time; due already when absent. */
  runAt?: Date;
}

/**
 * Starts the runs of committed rows on a runner that is told about work (Inngest) rather than one
 * that polls the table (the embedded runner). Registered by whoever knows that runner, so this
 * folder never depends on it.
 */
export interface JobDispatcher {
  dispatch(jobs: readonly DispatchedJob[]): Promise<void>;
}

/**
 * How long a due row may wait for its dispatch before the sweep sends it again. Shorter would race
 * the normal path and start needless duplicate runs (harmless: the claim lets only one through).
 */
const dispatchGraceSeconds = 60;

// Registered at boot, used by the route handlers' enqueues too.
const registered = processSlot<JobDispatcher>("jobDispatcher");

/** Sets (or, with undefined, removes) the process's dispatcher. Without one, only the table holds the work. */
export function registerJobDispatcher(dispatcher: JobDispatcher | undefined): void {
  registered.set(dispatcher);
}

/**
 * Tells the registered dispatcher about committed rows; rows written inside a transaction are
 * passed here by the caller once that transaction has returned. A failed dispatch loses nothing:
 * the row is in the table and the sweep sends it again once it is overdue. Resolves false then.
 */
export async function dispatchJobs(jobs: readonly DispatchedJob[]): Promise<boolean> {
  const dispatcher = registered.get();
  if (!dispatcher || jobs.length === 0) return true;
  try {
    await dispatcher.dispatch(jobs);
    return true;
  } catch (error) {
    logger.warn("jobs not dispatched; the dispatch sweep will send them", { error, count: jobs.length });
    return false;
  }
}

/** Rows a dispatched runner should have run by now (lost dispatches, runs that died): the sweep's work. */
export async function overdueJobs(options: { database: Database; names: string[]; now?: Date; limit?: number }): Promise<DispatchedJob[]> {
  const rows = await findOverdueJobs(options.database.connection, {
    names: options.names,
    now: options.now ?? new Date(),
    graceSeconds: dispatchGraceSeconds,
    limit: options.limit ?? 500,
  });
  return rows.map((row) => ({ id: row.id, name: row.name, accountId: row.accountId }));
}
