import { z } from "zod";
import { declareJob } from "@/lib/infra/jobs/define";

/** The media jobs, as services enqueue them; the worker binds their handlers (lib/adapters/jobs/photo-jobs.ts). */
export const mediaJobs = {
  /** A listing's photo list to download, check, render and publish (`setListingPhotos` enqueues it). */
  processPhotos: declareJob({ name: "photos.process", payload: z.object({ listingId: z.string().min(1) }), accountScoped: true }),
  /** Hourly clean-up of unused uploads and files no photo refers to. */
  cleanUpFiles: declareJob({ name: "photos.cleanup", payload: z.object({}) }),
};
