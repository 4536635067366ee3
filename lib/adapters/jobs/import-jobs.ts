import { importJobs } from "@/lib/domain/imports/jobs";
import { processImport } from "@/lib/domain/imports/process-import";
import { defineJob } from "@/lib/infra/jobs/define";
import { enqueue } from "@/lib/infra/jobs/enqueue";

/**
 * How long one run applies lines before it hands the rest to a new run: short enough that the
 * embedded runner's other jobs of the same pass are not held long.
 */
const importRunBudgetMs = 60_000;

/**
 * How long a claim of an import's job holds without renewal. The run renews it before each
 * transaction of lines (every 15 s at most), so a live run keeps its import; a run whose process
 * died leaves it to another runner within 45 s, where the default lease (600 s) kept the account's
 * next import refused (`import_in_progress`) for ten minutes.
 */
const importLeaseSeconds = 45;

/**
 * A bulk import's lines (`POST /listings/imports`). A run that dies or stops mid-import loses no
 * line: the next run (a retry, or the claim of the expired row) starts after the last committed one.
 */
export const processImportJob = defineJob({
  ...importJobs.processImport,
  retry: { delaysSeconds: [5, 30, 120, 600, 1800] },
  leaseSeconds: importLeaseSeconds,
  handler: async (payload, ctx) => {
    const outcome = await processImport({
      ctx,
      input: { importId: payload.importId, budgetMs: importRunBudgetMs, renewLease: ctx.job.renewLease },
    });
    if (outcome.status === "continue") await enqueue(processImportJob, payload, { accountId: ctx.job.accountId ?? undefined });
    return outcome;
  },
});
