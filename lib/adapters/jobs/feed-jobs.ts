import { feedJobs } from "@/lib/domain/feeds/jobs";
import { pullFeed } from "@/lib/domain/feeds/pull-feed";
import { schedulePulls } from "@/lib/domain/feeds/schedule-pulls";
import { defineJob } from "@/lib/infra/jobs/define";

/**
 * Every minute: the feeds whose `next_pull_at` has come are claimed and their pulls queued. A
 * minute is the schedule's grain: the shortest interval (15 minutes) drifts by less than that.
 */
export const scheduleFeedPullsJob = defineJob({
  ...feedJobs.schedule,
  cron: "* * * * *",
  retry: { delaysSeconds: [30] },
  handler: async (_payload, ctx) => schedulePulls({ ctx }),
});

/**
 * One pull of a feed. A failed fetch is the pull's outcome, recorded on the feed, not the job's
 * failure; the retries are for the database. A pull whose retries all fail leaves its claim, which
 * lapses after 15 minutes (`feedPullClaimMinutes`).
 */
export const pullFeedJob = defineJob({
  ...feedJobs.pull,
  retry: { delaysSeconds: [10, 60] },
  handler: async (payload, ctx) => pullFeed({ ctx, input: { feedId: payload.feedId } }),
});
