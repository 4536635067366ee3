import { z } from "zod";
import { defineJob } from "@/lib/infra/jobs/define";
import { applyRetention } from "./retention";
import { retentionRules } from "./retention-rules";

// Hourly rather than daily: each run then has little to remove and stays short.
export const retentionJob = defineJob({
  name: "retention.cleanup",
  cron: "20 * * * *",
  payload: z.object({}),
  retry: { delaysSeconds: [300, 1800] },
  handler: async (_payload, ctx) => ({ rules: await applyRetention(ctx.database, retentionRules, ctx.now) }),
});
