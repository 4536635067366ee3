import { eq } from "drizzle-orm";
import { z } from "zod";
import { database } from "@/db";
import { jobs } from "@/db/schema";
import { defineJob, type JobContext } from "@/lib/infra/jobs/define";
import { randomToken } from "@/lib/base/ids";

/**
 * A job with a name of its own: on PostgreSQL every test file shares one database, and a runner
 * claims only the names it is given, so unique names keep files and tests apart.
 */
export function recordingJob(
  label: string,
  options: { delaysSeconds?: number[]; fail?: (attempt: number) => Error | undefined; cron?: string; tookMs?: number } = {},
) {
  const calls: { payload: { value: string }; ctx: JobContext; clockAt: Date }[] = [];
  const job = defineJob({
    name: `test.${label}.${randomToken(8)}`,
    payload: z.object({ value: z.string().default("x") }),
    retry: { delaysSeconds: options.delaysSeconds ?? [] },
    cron: options.cron,
    handler: async (payload, ctx) => {
      calls.push({ payload, ctx, clockAt: ctx.clock() });
      if (options.tookMs) await new Promise((resolve) => setTimeout(resolve, options.tookMs));
      const error = options.fail?.(ctx.job.attempt);
      if (error) throw error;
      return { echoed: payload.value };
    },
  });
  return { job, calls };
}

export async function jobRow(id: string) {
  const { connection: db } = await database();
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

export async function rowsNamed(name: string) {
  const { connection: db } = await database();
  return db.select().from(jobs).where(eq(jobs.name, name));
}

export const at = (iso: string) => new Date(iso);
export const plusSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);
