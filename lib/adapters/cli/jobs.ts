import { z } from "zod";
import { config } from "@/lib/base/config";
import { ValidationError } from "@/lib/base/errors";
import { jobNames, jobRegistry } from "@/lib/adapters/jobs/registry";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { commaList, defineCommand } from "./command";

export const jobCommands = [
  defineCommand({
    name: "jobs:run",
    summary:
      "Runs every due job once, then returns what each run did. --now runs them as of that moment (sandbox only), --jobs only the named ones.",
    args: z.object({
      now: z.iso.datetime({ offset: true }).optional(),
      jobs: commaList(z.enum(jobNames() as [string, ...string[]])).optional(),
    }),
    run: async (ctx, args) => {
      // The controllable clock is for trying time-based rules (30 days before `unconfirmed`, the
      // reminder before it) in the sandbox; in production it would act on real listings ahead of time.
      if (args.now && config().APP_ENV !== "sandbox") {
        throw new ValidationError([{ pointer: "/now", code: "prohibits", params: { other: "APP_ENV=production" } }]);
      }
      const jobs = args.jobs ? jobRegistry.filter((job) => args.jobs!.includes(job.name)) : undefined;
      return { ...(await runDueJobs({ database: ctx.database, now: args.now ? new Date(args.now) : ctx.now, jobs })) };
    },
  }),
];
