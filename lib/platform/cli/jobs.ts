import { runDueJobs } from "@/lib/platform/jobs/runner";
import { z } from "zod";
import { defineCommand } from "./command";

export const jobCommands = [
  defineCommand({
    name: "jobs:run",
    summary: "Runs every due job once, then returns what each run did.",
    args: z.object({}),
    run: async (ctx) => ({ ...(await runDueJobs({ database: ctx.database, now: ctx.now })) }),
  }),
];
