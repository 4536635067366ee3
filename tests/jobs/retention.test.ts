import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { apiLog, jobs } from "@/db/schema";
import { newId, randomToken } from "@/lib/base/ids";
import { enqueue } from "@/lib/infra/jobs/enqueue";
import { jobRegistry } from "@/lib/adapters/worker/registry";
import { applyRetentionRule, retentionBatchSize } from "@/lib/adapters/worker/retention";
import { retentionJob } from "@/lib/adapters/worker/retention-job";
import { retentionRules } from "@/lib/adapters/worker/retention-rules";
import { runDueJobs } from "@/lib/adapters/worker/runner";
import { jobRow, plusSeconds } from "./fixtures";

// Real time: on PostgreSQL other test files share these tables, and their rows are all recent.
const now = new Date();
const daysAgo = (days: number) => plusSeconds(now, -days * 86_400);
const body = { secretless: true };

async function logRows(tag: string, ages: Record<string, number>) {
  const { connection: db } = await database();
  await db.insert(apiLog).values(
    Object.entries(ages).map(([label, days]) => ({
      requestId: `${tag}-${label}`,
      method: "GET",
      path: "/api/v1/ping",
      status: 200,
      durationMs: 1,
      requestBody: body,
      responseBody: body,
      createdAt: daysAgo(days),
    })),
  );
}

async function logState(tag: string) {
  const { connection: db } = await database();
  const rows = await db
    .select({ requestId: apiLog.requestId, requestBody: apiLog.requestBody, responseBody: apiLog.responseBody })
    .from(apiLog)
    .where(like(apiLog.requestId, `${tag}-%`));
  return Object.fromEntries(
    rows.map((row) => [
      row.requestId.slice(tag.length + 1),
      row.requestBody === null && row.responseBody === null ? "no bodies" : "bodies",
    ]),
  );
}

describe("retention clean-ups", () => {
  it("clear API log bodies after 30 days and delete API log rows after 365 days", async () => {
    const tag = `ret-${randomToken(8)}`;
    await logRows(tag, { fresh: 0, day29: 29, day31: 31, day364: 364, day366: 366 });

    const { id } = await enqueue(retentionJob, {}, { runAt: now });
    await runDueJobs({ database: await database(), now, jobs: [retentionJob] });
    expect(await jobRow(id)).toMatchObject({ status: "done" });

    expect(await logState(tag)).toEqual({ fresh: "bodies", day29: "bodies", day31: "no bodies", day364: "no bodies" });
  });

  it("delete finished job rows after their retention and leave pending ones alone", async () => {
    const { connection: db } = await database();
    const name = `test.retention.${randomToken(8)}`;
    const rows = {
      doneRecent: { status: "done", finishedAt: daysAgo(6) },
      doneOld: { status: "done", finishedAt: daysAgo(8) },
      failedRecent: { status: "failed", finishedAt: daysAgo(8) },
      failedOld: { status: "failed", finishedAt: daysAgo(31) },
      queuedOld: { status: "queued", finishedAt: null },
    } as const;
    const ids = Object.fromEntries(Object.keys(rows).map((label) => [label, newId("job")]));
    await db.insert(jobs).values(
      Object.entries(rows).map(([label, row]) => ({
        id: ids[label],
        name,
        payload: {},
        runAt: daysAgo(40),
        createdAt: daysAgo(40),
        ...row,
      })),
    );

    for (const rule of retentionRules.filter((candidate) => candidate.table === jobs))
      await applyRetentionRule(await database(), rule, now);

    const left = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.name, name));
    const labels = Object.entries(ids)
      .filter(([, id]) => left.some((row) => row.id === id))
      .map(([label]) => label);
    expect(labels.sort()).toEqual(["doneRecent", "failedRecent", "queuedOld"]);
  });

  it("works through more old rows than one batch, batch by batch", async () => {
    const handle = await database();
    const tag = `bulk-${randomToken(8)}`;
    const count = retentionBatchSize * 2 + 17;
    await logRows(tag, Object.fromEntries(Array.from({ length: count }, (_, i) => [`r${i}`, 40])));
    const rule = retentionRules.find((candidate) => candidate.name === "api_log.bodies")!;

    // Scoped to this test's rows, so the count is exact whatever else the table holds.
    const result = await applyRetentionRule(handle, { ...rule, where: like(apiLog.requestId, `${tag}-%`) }, now);
    expect(result).toEqual({ rule: "api_log.bodies", affected: count, complete: true });
    expect(Object.values(await logState(tag)).every((state) => state === "no bodies")).toBe(true);
    const again = await applyRetentionRule(handle, { ...rule, where: like(apiLog.requestId, `${tag}-%`) }, now);
    expect(again.affected).toBe(0);
  });

  it("is a registered cron job holding the retention limits", () => {
    expect(jobRegistry).toContain(retentionJob);
    expect(retentionJob.cron).toBeDefined();
    expect(retentionRules.map((rule) => [rule.name, rule.keepDays])).toEqual(
      expect.arrayContaining([
        ["api_log.bodies", 30],
        ["api_log.rows", 365],
        ["jobs.done", 7],
        ["jobs.failed", 30],
      ]),
    );
  });
});
