import type { z } from "zod";
import { database, type Connection, type Handle, type Transaction } from "@/db";
import type { JobDeclaration } from "./define";
import { dispatchJobs, type DispatchedJob } from "./dispatch";
import { insertJob } from "./store";

export interface EnqueueOptions {
  /**
   * The caller's transaction: the row commits or rolls back with the caller's own writes (outbox),
   * so work is never lost nor done for a change that did not happen. Only the caller knows when it
   * commits, so it dispatches the row then (`dispatchJobs`, or `transactionWithJobs` does it).
   */
  tx?: Handle;
  /** Not before this time; now when absent. */
  runAt?: Date;
  /** While a row with this key is queued or running, enqueueing it again returns that row. */
  dedupeKey?: string;
  /** The account whose work it is: required by an account-scoped job, which runners cap per account. */
  accountId?: string;
}

export interface EnqueuedJob extends Required<DispatchedJob> {
  /** False when `dedupeKey` matched a pending row, whose id is returned (and which was dispatched already). */
  created: boolean;
}

/**
 * Records work for a job. The payload is checked against the job's schema before anything is
 * written. Without `tx` the row is committed at once and dispatched; with `tx` it is dispatched by
 * the caller after its transaction (until then, or if that never happens, the sweep covers it).
 */
export async function enqueue<P extends z.ZodType>(
  job: JobDeclaration<P>,
  payload: z.input<P>,
  options: EnqueueOptions = {},
): Promise<EnqueuedJob> {
  const parsed = job.payload.parse(payload);
  if (job.accountScoped && !options.accountId)
    throw new Error(`Job "${job.name}" is the work of an account: enqueue it with its accountId`);
  const runAt = options.runAt ?? new Date();
  const db = options.tx ?? (await database()).connection;
  const row = await insertJob(db, { name: job.name, payload: parsed, runAt, dedupeKey: options.dedupeKey, accountId: options.accountId });
  const enqueued = { ...row, name: job.name };
  if (!options.tx) await dispatchJobs(newRows([enqueued]));
  return enqueued;
}

/** `enqueue` bound to one transaction. */
export type EnqueueInTransaction = <P extends z.ZodType>(
  job: JobDeclaration<P>,
  payload: z.input<P>,
  options?: Omit<EnqueueOptions, "tx">,
) => Promise<EnqueuedJob>;

/**
 * Runs `work` in one transaction and dispatches the jobs it enqueued once that transaction has
 * committed. When `work` throws, the rows roll back with everything else and nothing is dispatched.
 */
export async function transactionWithJobs<T>(
  db: Connection,
  work: (tx: Transaction, enqueue: EnqueueInTransaction) => Promise<T>,
): Promise<T> {
  const written: EnqueuedJob[] = [];
  const result = await db.transaction((tx) =>
    work(tx, async (job, payload, options = {}) => {
      const enqueued = await enqueue(job, payload, { ...options, tx });
      written.push(enqueued);
      return enqueued;
    }),
  );
  await dispatchJobs(newRows(written));
  return result;
}

const newRows = (jobs: readonly EnqueuedJob[]): DispatchedJob[] =>
  jobs.filter((job) => job.created).map(({ id, name, accountId, runAt }) => ({ id, name, accountId, runAt }));
