import { and, eq, inArray, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { accounts, apiLog, events, jobs, webhookDeliveries, webhooks } from "@/db/schema";
import { newId, randomToken } from "@/lib/base/ids";
import { enqueue } from "@/lib/infra/jobs/enqueue";
import { jobRegistry } from "@/lib/adapters/worker/registry";
import { applyPartitionRetention, ensurePartitions, partitionDaysAhead, partitionedTables } from "@/lib/adapters/worker/partitions";
import { applyRetentionRule, retentionBatchSize } from "@/lib/adapters/worker/retention";
import { createPartitionsJob, retentionJob } from "@/lib/adapters/worker/retention-job";
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

/** The partition of a moment: its UTC week's, named by the Monday. */
function partitionName(table: string, at: Date): string {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const monday = new Date(midnight - ((at.getUTCDay() + 6) % 7) * 86_400_000);
  return `${table}_p${monday.toISOString().slice(0, 10).replaceAll("-", "")}`;
}

async function partitionExists(name: string): Promise<boolean> {
  const [{ present }] = await (await database()).rows<{ present: boolean }>(sql`select to_regclass(${name}) is not null as present`);
  return present;
}

/** Where each of the tag's API log rows is stored: its day's partition or DEFAULT. */
async function partitionsOf(tag: string) {
  const rows = await (
    await database()
  ).rows<{ request_id: string; partition: string }>(
    sql`select request_id, tableoid::regclass::text as partition from api_log where request_id like ${`${tag}-%`}`,
  );
  return Object.fromEntries(rows.map((row) => [row.request_id.slice(tag.length + 1), row.partition]));
}

/** An account with a webhook, and a way to record an event at a given time with one delivery to it. */
async function eventWithDelivery() {
  const { connection: db } = await database();
  const account = newId("account");
  const webhook = newId("webhook");
  await db.insert(accounts).values({ id: account, email: `${account}@example.com`, name: "R", passwordHash: "x" });
  await db
    .insert(webhooks)
    .values({ id: webhook, accountId: account, url: "https://receiver.example/", eventTypes: ["*"], secretSealed: "x" });
  const deliveryOf = async (at: Date) => {
    const [event] = await db.insert(events).values({ accountId: account, type: "listing.updated", data: {}, createdAt: at }).returning();
    const id = newId("webhookDelivery");
    await db.insert(webhookDeliveries).values({ id, webhookId: webhook, eventSeq: event.seq, createdAt: at });
    return { id, seq: event.seq };
  };
  return { account, deliveryOf };
}

describe("retention clean-ups", () => {
  it("clear API log bodies after 30 days and delete API log rows after 365 days, by week partition and in DEFAULT", async () => {
    const handle = await database();
    const tag = `ret-${randomToken(8)}`;
    // Days no other test file partitions: on PostgreSQL they share the table, and a cleared day refuses bodies.
    const ages = { fresh: 0, day27: 27, day38: 38, day364: 364, day375: 375 };
    // The test database's partitions start this week (its migration found no rows): make those days'.
    for (const days of Object.values(ages)) await ensurePartitions(handle, "api_log", daysAgo(days), daysAgo(days));
    // Weeks without a partition: their rows are in DEFAULT, where retention goes row by row.
    await logRows(tag, { ...ages, default60: 60, default500: 500 });
    expect(await partitionsOf(tag)).toMatchObject({
      day375: partitionName("api_log", daysAgo(375)),
      default60: "api_log_default",
      default500: "api_log_default",
    });

    const { id } = await enqueue(retentionJob, {}, { runAt: now });
    await runDueJobs({ database: handle, now, jobs: [retentionJob] });
    expect(await jobRow(id)).toMatchObject({ status: "done" });

    expect(await logState(tag)).toEqual({
      fresh: "bodies",
      day27: "bodies",
      day38: "no bodies",
      day364: "no bodies",
      default60: "no bodies",
    });
    expect(await partitionExists(partitionName("api_log", daysAgo(375)))).toBe(false);
    expect(await partitionExists(partitionName("api_log", daysAgo(364)))).toBe(true);
    // A cleared week is marked, so the next run does not scan it again.
    const [bodies] = (await applyPartitionRetention(handle, partitionedTables[0], now)).filter((r) => r.rule === "api_log.bodies");
    expect(bodies.partitions).not.toContain(partitionName("api_log", daysAgo(38)));
    // And keeps it so: a late row with bodies is refused there (the API log's writer then stores it without).
    await expect(logRows(`${tag}-late`, { day38: 38 })).rejects.toThrow();
  });

  it("run twice at once, drop and clear each week once and neither fails", async () => {
    const handle = await database();
    const tag = `twice-${randomToken(8)}`;
    // Weeks no other test touches: on PostgreSQL the two runs race for real.
    await ensurePartitions(handle, "api_log", daysAgo(200), daysAgo(200));
    await ensurePartitions(handle, "api_log", daysAgo(390), daysAgo(390));
    await logRows(tag, { day200: 200, day390: 390 });
    const target = partitionedTables.find((candidate) => candidate.table === "api_log")!;

    const runs = await Promise.all([applyPartitionRetention(handle, target, now), applyPartitionRetention(handle, target, now)]);

    const acted = (rule: string) => runs.flat().flatMap((result) => (result.rule === rule ? result.partitions : []));
    expect(acted("api_log.rows").filter((name) => name === partitionName("api_log", daysAgo(390)))).toHaveLength(1);
    expect(acted("api_log.bodies").filter((name) => name === partitionName("api_log", daysAgo(200)))).toHaveLength(1);
    expect(await logState(tag)).toEqual({ day200: "no bodies" });
  });

  it("drops a week of events older than 35 days with the webhook deliveries of its events", async () => {
    const handle = await database();
    const { account, deliveryOf } = await eventWithDelivery();
    await ensurePartitions(handle, "events", daysAgo(43), daysAgo(34));
    const old = await deliveryOf(daysAgo(43));
    const kept = await deliveryOf(daysAgo(34));

    await applyPartitionRetention(handle, partitionedTables[1], now);

    const { connection: db } = handle;
    const left = await db.select({ seq: events.seq }).from(events).where(eq(events.accountId, account));
    expect(left.map((row) => row.seq)).toEqual([kept.seq]);
    const deliveries = await db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, [old.id, kept.id]));
    expect(deliveries.map((row) => row.id)).toEqual([kept.id]);
    expect(await partitionExists(partitionName("events", daysAgo(43)))).toBe(false);
  });

  it("create the weeks ahead, moving DEFAULT's rows of those days into them; rows of days without one stay in DEFAULT", async () => {
    const handle = await database();
    const tag = `ahead-${randomToken(8)}`;
    // Far enough that no other test's partitions are there: the job is run as if it were that day.
    const later = plusSeconds(now, 5000 * 86_400);
    await logRows(tag, { ahead: -5003, beyond: -5020, past: 20_000 });
    expect(await partitionsOf(tag)).toEqual({ ahead: "api_log_default", beyond: "api_log_default", past: "api_log_default" });

    const { id } = await enqueue(createPartitionsJob, {}, { runAt: now });
    await runDueJobs({ database: handle, now: later, jobs: [createPartitionsJob] });
    expect(await jobRow(id)).toMatchObject({ status: "done" });

    expect(await partitionsOf(tag)).toEqual({
      ahead: partitionName("api_log", daysAgo(-5003)),
      beyond: "api_log_default",
      past: "api_log_default",
    });
    for (let ahead = 0; ahead <= partitionDaysAhead; ahead++)
      for (const table of ["api_log", "events"]) expect(await partitionExists(partitionName(table, daysAgo(-5000 - ahead)))).toBe(true);
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
    const name = `test.retention.bulk.${randomToken(8)}`;
    const count = retentionBatchSize * 2 + 17;
    await handle.connection.insert(jobs).values(
      Array.from({ length: count }, () => ({
        id: newId("job"),
        name,
        payload: {},
        runAt: daysAgo(40),
        status: "done" as const,
        finishedAt: daysAgo(40),
      })),
    );
    const rule = retentionRules.find((candidate) => candidate.name === "jobs.done")!;

    // Scoped to this test's rows, so the count is exact whatever else the table holds.
    const scoped = { ...rule, where: and(rule.where, eq(jobs.name, name)) };
    expect(await applyRetentionRule(handle, scoped, now)).toEqual({ rule: "jobs.done", affected: count, complete: true });
    expect(await handle.connection.select().from(jobs).where(eq(jobs.name, name))).toEqual([]);
    expect((await applyRetentionRule(handle, scoped, now)).affected).toBe(0);
  });

  it("are registered cron jobs holding the retention limits", () => {
    expect(jobRegistry).toEqual(expect.arrayContaining([retentionJob, createPartitionsJob]));
    expect(retentionJob.cron).toBeDefined();
    expect(createPartitionsJob.cron).toBeDefined();
    expect(partitionedTables.map((target) => [target.table, target.keepDays, target.clear?.afterDays])).toEqual([
      ["api_log", 365, 30],
      ["events", 35, undefined],
    ]);
    expect(retentionRules.map((rule) => [rule.name, rule.keepDays])).toEqual(
      expect.arrayContaining([
        ["jobs.done", 7],
        ["jobs.failed", 30],
      ]),
    );
  });
});
