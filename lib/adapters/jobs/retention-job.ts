import { z } from "zod";
import { defineJob } from "@/lib/infra/jobs/define";
import { applyPartitionsRetention, createPartitionsAhead } from "./partitions";
import { applyRetention } from "./retention";
import { retentionRules } from "./retention-rules";

// Hourly rather than daily: each run then has little to remove and stays short.
export const retentionJob = defineJob({
  name: "retention.cleanup",
  cron: "20 * * * *",
  payload: z.object({}),
  retry: { delaysSeconds: [300, 1800] },
  handler: async (_payload, ctx) => ({
    partitions: await applyPartitionsRetention(ctx.database, ctx.clock()),
    rules: await applyRetention(ctx.database, retentionRules, ctx.clock()),
  }),
});

// Hourly although a day's partition is made a week ahead: a missed run or a stopped worker costs nothing.
export const createPartitionsJob = defineJob({
  name: "partitions.create",
  cron: "10 * * * *",
  payload: z.object({}),
  retry: { delaysSeconds: [300, 1800] },
  handler: async (_payload, ctx) => ({ tables: await createPartitionsAhead(ctx.database, ctx.clock()) }),
});
