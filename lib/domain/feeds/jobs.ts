import { z } from "zod";
import { declareJob } from "@/lib/infra/jobs/define";

/** The feed jobs, as services enqueue them; the worker binds their handlers (lib/adapters/jobs/feed-jobs.ts). */
export const feedJobs = {
  /** Claims the feeds whose `next_pull_at` has come and enqueues their pulls. */
  schedule: declareJob({ name: "feeds.schedule", payload: z.object({}) }),
  /** One pull of a feed (claimed by the scheduler or `POST /feeds/{id}/pull`). */
  pull: declareJob({ name: "feeds.pull", payload: z.object({ feedId: z.string().min(1) }), accountScoped: true }),
};
