import { z } from "zod";
import { database as processDatabase, type Database } from "@/db";
import { maxRunningJobsPerAccount, type JobDefinition } from "@/lib/infra/jobs/define";
import { enqueueCronOccurrence, runJobById, type RunByIdResult } from "@/lib/adapters/jobs/run";
import { inngest } from "../client";
import { jobEventName } from "../dispatch";

const jobEventData = z.object({ jobId: z.string().min(1) });

export interface JobFunctionDeps {
  database: () => Promise<Database>;
  now: () => Date;
  /** The registry unless given (tests bring their own jobs). */
  jobs?: readonly JobDefinition[];
}

const processDeps: JobFunctionDeps = { database: processDatabase, now: () => new Date() };

/**
 * The embedded runner's cap on an account's running jobs, on Inngest: one concurrency group per
 * account shared by every account-scoped job function (`env` scope, hence the key's prefix), so an
 * account's import and photo runs together take at most `maxRunningJobsPerAccount` steps at once.
 */
export const accountConcurrency = {
  scope: "env",
  key: '"job-account:" + event.data.accountId',
  limit: maxRunningJobsPerAccount,
} as const;

/**
 * The Inngest function of one job. Triggered by `jobs/<name>` (sent after the row commits, or by
 * the dispatch sweep) and, for a cron job, by its schedule. It runs the row through the same claim,
 * handler and bookkeeping as the embedded runner; the job's retry delays become durable sleeps.
 * Inngest's own retries cover errors outside the handler (the database unreachable, say).
 */
export function createJobFunction(job: JobDefinition, deps: JobFunctionDeps = processDeps) {
  const eventName = jobEventName(job.name);
  return inngest.createFunction(
    {
      id: `job-${job.name.replace(/\./g, "-")}`,
      name: `Job ${job.name}`,
      retries: 5,
      ...(job.accountScoped ? { concurrency: [accountConcurrency] } : {}),
      triggers: job.cron ? [{ event: eventName }, { cron: job.cron }] : [{ event: eventName }],
    },
    async ({ event, step }) => {
      const jobId =
        event.name === eventName
          ? jobEventData.parse(event.data).jobId
          : await step.run("enqueue-occurrence", async () =>
              enqueueCronOccurrence({ database: await deps.database(), job, now: deps.now() }),
            );
      // Each retry, and each wait for a row not yet due or held by another run, is one round.
      let result: RunByIdResult = { id: jobId, status: "gone" };
      for (let round = 1; round <= job.maxAttempts + 2; round++) {
        result = await step.run(`attempt-${round}`, async () =>
          runJobById({ database: await deps.database(), id: jobId, now: deps.now(), jobs: deps.jobs }),
        );
        if (result.status === "retrying") await step.sleepUntil(`retry-${round}`, result.runAt);
        else if (result.status === "waiting") await step.sleepUntil(`wait-${round}`, result.until);
        else return result;
      }
      // Still pending after every round: the row stays queued and the dispatch sweep sends it again.
      return result;
    },
  );
}
