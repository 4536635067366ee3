import { importJobs } from "@/lib/domain/imports/jobs";
import { processImport } from "@/lib/domain/imports/process-import";
import { defineJob } from "@/lib/infra/jobs/define";
import { enqueue } from "@/lib/infra/jobs/enqueue";

/**
 * How long one run applies lines before it hands the rest to a new run: far within the claim lease
 * (600 s), and short enough that the embedded runner's other jobs of the same pass are not held long.
 */
const importRunBudgetMs = 60_000;

/**
 * A bulk import's lines (`POST /listings/imports`). A run that dies or stops mid-import loses no
 * line: the next run (a retry, or the claim of the expired row) starts after the last committed one.
 */
export const processImportJob = defineJob({
  ...importJobs.processImport,
  retry: { delaysSeconds: [5, 30, 120, 600, 1800] },
  handler: async (payload, ctx) => {
    const outcome = await processImport({ ctx, input: { importId: payload.importId, budgetMs: importRunBudgetMs } });
    if (outcome.status === "continue") await enqueue(processImportJob, payload);
    return outcome;
  },
});
