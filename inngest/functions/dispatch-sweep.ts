import { database as processDatabase, type Database } from "@/db";
import { overdueJobs } from "@/lib/infra/jobs/dispatch";
import { jobNames } from "@/lib/adapters/jobs/registry";
import { inngest } from "../client";
import { jobEvent } from "../dispatch";

/**
 * Every minute, sends the events of rows that should have run by now: an event lost between the
 * commit and the send, or a run whose process died while it held the row.
 */
export function createDispatchSweep(
  deps: { database: () => Promise<Database>; now: () => Date; names?: () => string[] } = {
    database: processDatabase,
    now: () => new Date(),
  },
) {
  return inngest.createFunction(
    { id: "jobs-dispatch-sweep", name: "Jobs dispatch sweep", triggers: [{ cron: "* * * * *" }] },
    async ({ step }) => {
      const events = await step.run("find-overdue", async () => {
        const overdue = await overdueJobs({ database: await deps.database(), names: (deps.names ?? jobNames)(), now: deps.now() });
        return overdue.map(jobEvent);
      });
      if (events.length > 0) await step.sendEvent("dispatch-overdue", events);
      return { dispatched: events.length };
    },
  );
}
