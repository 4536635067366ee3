import { and, eq } from "drizzle-orm";
import { listingFeeds } from "@/db/schema";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { dispatchJobs } from "@/lib/infra/jobs/dispatch";
import type { EnqueuedJob } from "@/lib/infra/jobs/enqueue";
import { renderFeed, type FeedView } from "./fields";
import { claimPull, feedFree } from "./internal/claim";
import { ownFeed } from "./internal/queries";

/**
 * `POST /feeds/{id}/pull`: queues a pull of the feed now, whatever its schedule (which stays as it
 * was). 409 `feed_pull_in_progress` while a pull of it, or the import of its last file, is queued or
 * running. Another account's feed: 404.
 */
export async function requestPull({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { id: string } }): Promise<FeedView> {
  let job: EnqueuedJob | undefined;
  const feed = await withTransaction(ctx, async (tx) => {
    const found = await ownFeed(tx, input.id, { lock: true });
    const [free] = await tx.db
      .select({ id: listingFeeds.id })
      .from(listingFeeds)
      .where(and(eq(listingFeeds.id, found.id), feedFree(tx.now)));
    if (!free) throw new AppError("feed_pull_in_progress", { id: found.id });
    job = await claimPull(tx.db, found, tx.now, { schedule: false });
    return renderFeed({ ...found, pullClaimedAt: tx.now }, false);
  });
  if (job?.created) await dispatchJobs([{ id: job.id, name: job.name, accountId: job.accountId, runAt: job.runAt }]);
  return feed;
}
