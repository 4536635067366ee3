import type { z } from "zod";
import { database, type Queryable } from "@/db";
import { inngestConfigured } from "@/lib/platform/config";
import { logger } from "@/lib/platform/logger";
import type { JobDefinition } from "./define";
import { jobEvent, sendAfterCommit, sendJobEvents } from "./dispatch";
import { insertJob } from "./store";

export interface EnqueueOptions {
  /**
   * The caller's transaction: the row commits or rolls back with the caller's own writes (outbox),
   * so work is never lost nor done for a change that did not happen.
   */
  tx?: Queryable;
  /** Not before this time; now when absent. */
  runAt?: Date;
  /** While a row with this key is queued or running, enqueueing it again returns that row. */
  dedupeKey?: string;
}

export interface EnqueuedJob {
  id: string;
  /** False when `dedupeKey` matched a pending row, whose id is returned. */
  created: boolean;
}

/** Records work for a job. The payload is checked against the job's schema before anything is written. */
export async function enqueue<P extends z.ZodType>(
  job: JobDefinition<P>,
  payload: z.input<P>,
  options: EnqueueOptions = {},
): Promise<EnqueuedJob> {
  const parsed = job.payload.parse(payload);
  const runAt = options.runAt ?? new Date();
  const q = options.tx ?? (await database()).db;
  const enqueued = await insertJob(q, { name: job.name, payload: parsed, runAt, dedupeKey: options.dedupeKey });
  if (enqueued.created && inngestConfigured()) {
    const row = { id: enqueued.id, name: job.name, runAt };
    if (options.tx) {
      sendAfterCommit(row).catch((error) => logger.warn("job dispatch after commit failed", { error, jobId: row.id }));
    } else {
      await sendJobEvents([jobEvent(row)]);
    }
  }
  return enqueued;
}
