import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfig } from "@/lib/base/config";
import { enqueue } from "@/lib/infra/jobs/enqueue";
import { retentionJob } from "@/lib/adapters/worker/retention-job";
import { startJobRunner, stopJobRunner } from "@/lib/adapters/worker/runner";
import { jobRow, rowsNamed } from "./fixtures";

function withEnv(env: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  resetConfig();
}

afterEach(async () => {
  await stopJobRunner();
  vi.unstubAllEnvs();
  resetConfig();
});

describe("embedded job runner process", () => {
  it("polls the jobs table: runs due work and keeps the next cron occurrences queued", async () => {
    withEnv({ JOBS_RUNNER: "on" });
    const { id } = await enqueue(retentionJob, {});
    expect(startJobRunner()).toBe(true);
    expect(startJobRunner()).toBe(true);

    await vi.waitFor(async () => expect(await jobRow(id)).toMatchObject({ status: "done" }), { timeout: 20_000 });
    const cronRows = (await rowsNamed(retentionJob.name)).filter((row) => row.dedupeKey === `cron:${retentionJob.name}`);
    expect(cronRows.filter((row) => row.status === "queued")).toHaveLength(1);
  });

  it("stays off when switched off or when Inngest runs the jobs", () => {
    withEnv({ JOBS_RUNNER: "off" });
    expect(startJobRunner()).toBe(false);
    withEnv({ JOBS_RUNNER: "on", INNGEST_DEV: "1" });
    expect(startJobRunner()).toBe(false);
  });
});
