import { and, asc, lte } from "drizzle-orm";
import { listingFeeds } from "@/db/schema";
import { withTransaction, type ServiceContext, type StaffActor } from "@/lib/base/context";
import { dispatchJobs } from "@/lib/infra/jobs/dispatch";
import type { EnqueuedJob } from "@/lib/infra/jobs/enqueue";
import { claimPull, feedFree } from "./internal/claim";

/** Feeds claimed by one pass; the next pass (a minute later) takes the rest. */
const feedsPerPass = 100;

/**
 * The scheduler's pass (`feeds.schedule`, every minute): claims the feeds due at `now` (`next_pull_at`
 * passed, none of their pulls or imports pending), sets each one's next pull one interval later
 * and queues its pull, in one transaction. `FOR UPDATE SKIP LOCKED`: two passes at once (two
 * runners, Inngest beside a worker) claim different feeds, and neither waits for the other.
 */
export async function schedulePulls({ ctx }: { ctx: ServiceContext<StaffActor> }): Promise<{ claimed: number; feedIds: string[] }> {
  const jobs: EnqueuedJob[] = [];
  const feedIds: string[] = [];
  await withTransaction(ctx, async (tx) => {
    const due = await tx.db
      .select({ id: listingFeeds.id, accountId: listingFeeds.accountId, intervalMinutes: listingFeeds.intervalMinutes })
      .from(listingFeeds)
      .where(and(lte(listingFeeds.nextPullAt, tx.now), feedFree(tx.now)))
      .orderBy(asc(listingFeeds.nextPullAt))
      .limit(feedsPerPass)
      .for("update", { of: listingFeeds, skipLocked: true });
    for (const feed of due) {
      jobs.push(await claimPull(tx.db, feed, tx.now, { schedule: true }));
      feedIds.push(feed.id);
    }
  });
  const created = jobs.filter((job) => job.created);
  if (created.length)
    await dispatchJobs(created.map((job) => ({ id: job.id, name: job.name, accountId: job.accountId, runAt: job.runAt })));
  return { claimed: feedIds.length, feedIds };
}
