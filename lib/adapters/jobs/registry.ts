import type { JobDefinition } from "@/lib/infra/jobs/define";
import { pullFeedJob, scheduleFeedPullsJob } from "./feed-jobs";
import { processImportJob } from "./import-jobs";
import { remindConfirmationJob, unconfirmListingsJob } from "./listing-jobs";
import { cleanUpPhotoFilesJob, processPhotosJob } from "./photo-jobs";
import { createPartitionsJob, retentionJob } from "./retention-job";

/**
 * Every job of the application. The embedded runner claims only these names and the Inngest
 * functions are made from this list, so a job exists once it is added here.
 */
export const jobRegistry: readonly JobDefinition[] = [
  retentionJob,
  createPartitionsJob,
  unconfirmListingsJob,
  remindConfirmationJob,
  processPhotosJob,
  cleanUpPhotoFilesJob,
  processImportJob,
  scheduleFeedPullsJob,
  pullFeedJob,
];

export const jobNames = (): string[] => jobRegistry.map((job) => job.name);
