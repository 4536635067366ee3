import { and, eq, inArray, isNull, lt, notExists, or, sql, type SQL } from "drizzle-orm";
import type { Handle } from "@/db";
import { listingFeeds, listingImports, pendingImportStatuses } from "@/db/schema";
import { enqueue, type EnqueuedJob } from "@/lib/infra/jobs/enqueue";
import { feedJobs } from "../jobs";
import { feedPullClaimMinutes } from "../limits";

/**
 * A feed free to pull at `now`: no pull queued or running (a claim older than `feedPullClaimMinutes`
 * was a dead run's) and no import of its file still queued or running.
 */
export function feedFree(now: Date): SQL {
  return and(
    or(isNull(listingFeeds.pullClaimedAt), lt(listingFeeds.pullClaimedAt, new Date(now.getTime() - feedPullClaimMinutes * 60_000))),
    notExists(
      sql`(select 1 from ${listingImports} where ${listingImports.feedId} = ${listingFeeds.id} and ${inArray(listingImports.status, pendingImportStatuses)})`,
    ),
  )!;
}

/**
 * Marks the feed's pull claimed and queues it, in the caller's transaction (which dispatches the job
 * after its commit); with `schedule`, the next pull is due one interval after `now`.
 */
export async function claimPull(
  db: Handle,
  feed: { id: string; accountId: string; intervalMinutes: number },
  now: Date,
  options: { schedule: boolean },
): Promise<EnqueuedJob> {
  await db
    .update(listingFeeds)
    .set({
      pullClaimedAt: now,
      ...(options.schedule ? { nextPullAt: new Date(now.getTime() + feed.intervalMinutes * 60_000) } : {}),
    })
    .where(eq(listingFeeds.id, feed.id));
  return enqueue(feedJobs.pull, { feedId: feed.id }, { tx: db, accountId: feed.accountId, dedupeKey: `feed-pull:${feed.id}` });
}
