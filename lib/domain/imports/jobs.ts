import { z } from "zod";
import { declareJob } from "@/lib/infra/jobs/define";

/** The import jobs, as services enqueue them; the worker binds their handlers (lib/adapters/jobs/import-jobs.ts). */
export const importJobs = {
  /** An import's lines to apply, from the first without a result (`startImport` enqueues it). */
  processImport: declareJob({ name: "listings.import", payload: z.object({ importId: z.string().min(1) }), accountScoped: true }),
};
