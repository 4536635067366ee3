import { cleanUpPhotoFiles } from "@/lib/domain/media/clean-up-files";
import { mediaJobs } from "@/lib/domain/media/jobs";
import { processListingPhotos } from "@/lib/domain/media/process-photos";
import { releasePhotoListing } from "@/lib/domain/media/release-photo-listing";
import { defineJob } from "@/lib/infra/jobs/define";
import { enqueue } from "@/lib/infra/jobs/enqueue";

/**
 * A listing's photo list (`PUT /listings/{code}/photos`): download, check, render and publish. One
 * worker per listing at a time on either engine (the listing's lease in `photo_lists`); a run that
 * finds the listing held comes back when the lease ends, in case its holder died.
 */
export const processPhotosJob = defineJob({
  ...mediaJobs.processPhotos,
  retry: { delaysSeconds: [10, 60, 300, 1800] },
  handler: async (payload, ctx) => {
    const outcome = await processListingPhotos({ ctx, input: payload });
    if (outcome.status === "busy") {
      await enqueue(processPhotosJob, payload, {
        runAt: outcome.until,
        dedupeKey: `photos-wait:${payload.listingId}`,
        accountId: ctx.job.accountId ?? undefined,
      });
    }
    return outcome;
  },
  giveBack: (payload, ctx) => releasePhotoListing({ ctx, input: payload }),
});

/**
 * Hourly: upload keys unused after about 24 hours and their files, photos of deleted listings, and
 * the files no photo refers to any more.
 */
export const cleanUpPhotoFilesJob = defineJob({
  ...mediaJobs.cleanUpFiles,
  cron: "40 * * * *",
  retry: { delaysSeconds: [300, 1800] },
  handler: (_payload, ctx) => cleanUpPhotoFiles({ ctx }),
});
