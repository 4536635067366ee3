import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { database } from "@/db";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { randomToken } from "@/lib/base/ids";
import { defineJob } from "@/lib/infra/jobs/define";
import { enqueue } from "@/lib/infra/jobs/enqueue";
import { claimDueJobs } from "@/lib/infra/jobs/store";
import { at, jobRow, plusSeconds } from "./fixtures";

const t0 = at("2031-04-01T10:00:00Z");

afterEach(() => {
  vi.useRealTimers();
});

describe("a job with a lease of its own", () => {
  it("is claimed for that long; renewLease renews it once a third has passed, and answers false once another run holds the row", async () => {
    const handle = await database();
    const seen: { lockedUntil: Date | null; held: boolean }[] = [];
    let other = 0;
    const job = defineJob({
      name: `test.lease.${randomToken(8)}`,
      payload: z.object({}),
      retry: { delaysSeconds: [] },
      leaseSeconds: 45,
      handler: async (_payload, ctx) => {
        const step = async (seconds: number) => {
          // Only the clock moves (the pass's clock reads Date): the database's timers keep the real time.
          vi.setSystemTime(plusSeconds(new Date(), seconds));
          const held = await ctx.job.renewLease();
          seen.push({ lockedUntil: (await jobRow(ctx.job.id)).lockedUntil, held });
        };
        await step(10);
        await step(6);
        // A second runner, 70 s after the claim (past the renewed lease's end, 61 s), claims the row again.
        other = (await claimDueJobs(handle.connection, { names: [job.name], now: plusSeconds(t0, 70), limit: 1 })).length;
        await step(54);
      },
    });
    vi.useFakeTimers({ toFake: ["Date"], now: t0 });
    const { id } = await enqueue(job, {}, { runAt: t0 });
    await runDueJobs({ database: handle, now: t0, jobs: [job] });
    expect(seen).toEqual([
      { lockedUntil: plusSeconds(t0, 45), held: true },
      { lockedUntil: plusSeconds(t0, 16 + 45), held: true },
      { lockedUntil: plusSeconds(t0, 70 + 600), held: false },
    ]);
    expect(other).toBe(1);
    expect(await jobRow(id)).toMatchObject({ status: "running", attempts: 2 });
  });

  it("must be whole seconds, at least 3", () => {
    const declare = (leaseSeconds: number) => () =>
      defineJob({ name: "test.bad-lease", payload: z.object({}), retry: { delaysSeconds: [] }, leaseSeconds, handler: async () => {} });
    expect(declare(2)).toThrow(/lease/);
    expect(declare(4.5)).toThrow(/lease/);
    expect(declare(3)).not.toThrow();
  });
});
