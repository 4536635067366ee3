import { and, eq, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { apiLog, apiLogBodies, jobs, listingImportLines, listingImports } from "@/db/schema";
import { newId, randomToken } from "@/lib/base/ids";
import { enqueue } from "@/lib/infra/jobs/enqueue";
import { jobRegistry } from "@/lib/adapters/jobs/registry";
import { applyPartitionRetention, ensurePartitions, partitionDaysAhead, partitionedTables } from "@/lib/adapters/jobs/partitions";
import { applyRetentionRule, retentionBatchSize } from "@/lib/adapters/jobs/retention";
import { eventKeepDays } from "@/lib/adapters/jobs/event-partitions";
import { createPartitionsJob, retentionJob } from "@/lib/adapters/jobs/retention-job";
import { retentionRules } from "@/lib/adapters/jobs/retention-rules";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { loggedRows } from "@/tests/support/api-log-rows";
import { jobRow, plusSeconds } from "./fixtures";
import { accountWithKey } from "../support/fixtures";

// Real time: on PostgreSQL other test files share these tables, and their rows are all recent.
const now = new Date();
const daysAgo = (days: number) => plusSeconds(now, -days * 86_400);
const body = { secretless: true };

const table = (name: (typeof partitionedTables)[number]["table"]) => partitionedTables.find((target) => target.table === name)!;

/** API log rows with bodies, `days` old each, as the API log's writer stores them. */
async function logRows(tag: string, ages: Record<string, number>) {
  const { connection: db } = await database();
  const rows = await db
    .insert(apiLog)
    .values(
      Object.entries(ages).map(([label, days]) => ({
        requestId: `${tag}-${label}`,
        method: "GET",
        path: "/api/v1/ping",
        status: 200,
        durationMs: 1,
        createdAt: daysAgo(days),
      })),
    )
    .returning({ id: apiLog.id, createdAt: apiLog.createdAt });
  await db.insert(apiLogBodies).values(rows.map((row) => ({ ...row, requestBody: body, responseBody: body })));
}

async function logState(tag: string) {
  const rows = await loggedRows((await database()).connection, like(apiLog.requestId, `${tag}-%`));
  return Object.fromEntries(
    rows.map((row) => [
      row.requestId.slice(tag.length + 1),
      row.requestBody === null && row.responseBody === null ? "no bodies" : "bodies",
    ]),
  );
}

/** The partition of a moment: its UTC day's, or its UTC week's named by the Monday. */
function partitionName(name: string, at: Date): string {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const first =
    table(name as "api_log").period === "day" ? new Date(midnight) : new Date(midnight - ((at.getUTCDay() + 6) % 7) * 86_400_000);
  return `${name}_p${first.toISOString().slice(0, 10).replaceAll("-", "")}`;
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

describe("retention clean-ups", () => {
  it("drop API log bodies by day after 30 days and API log rows by week after 365 days, and DEFAULT's row by row", async () => {
    const handle = await database();
    const tag = `ret-${randomToken(8)}`;
    const ages = { fresh: 0, day29: 29, day31: 31, day364: 364, day375: 375 };
    // The test database's partitions start this week (its migration found no rows): make those days'.
    for (const days of Object.values(ages))
      for (const name of ["api_log", "api_log_bodies"] as const) await ensurePartitions(handle, table(name), daysAgo(days), daysAgo(days));
    // Days without a partition: their rows (and bodies) are in DEFAULT, where retention goes row by row.
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
      day29: "bodies",
      day31: "no bodies",
      day364: "no bodies",
      default60: "no bodies",
    });
    expect(await partitionExists(partitionName("api_log", daysAgo(375)))).toBe(false);
    expect(await partitionExists(partitionName("api_log", daysAgo(364)))).toBe(true);
    expect(await partitionExists(partitionName("api_log_bodies", daysAgo(31)))).toBe(false);
    expect(await partitionExists(partitionName("api_log_bodies", daysAgo(29)))).toBe(true);
  });

  it("run twice at once, drop each partition once and neither fails", async () => {
    const handle = await database();
    const tag = `twice-${randomToken(8)}`;
    // Days no other test touches: on PostgreSQL the two runs race for real.
    await ensurePartitions(handle, table("api_log_bodies"), daysAgo(200), daysAgo(200));
    await ensurePartitions(handle, table("api_log"), daysAgo(390), daysAgo(390));
    await logRows(tag, { day200: 200, day390: 390 });

    const twice = (name: "api_log" | "api_log_bodies") =>
      Promise.all([applyPartitionRetention(handle, table(name), now), applyPartitionRetention(handle, table(name), now)]);
    const runs = (await Promise.all([twice("api_log"), twice("api_log_bodies")])).flat();

    const dropped = runs.flatMap((result) => result.partitions);
    expect(dropped.filter((name) => name === partitionName("api_log", daysAgo(390)))).toHaveLength(1);
    expect(dropped.filter((name) => name === partitionName("api_log_bodies", daysAgo(200)))).toHaveLength(1);
    expect(await logState(tag)).toEqual({ day200: "no bodies" });
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
      for (const { table: name } of partitionedTables)
        expect(await partitionExists(partitionName(name, daysAgo(-5000 - ahead)))).toBe(true);
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

  it("clear a completed import's lines after 30 days and delete the import with its results after 365; a running one stays", async () => {
    const { connection: db } = await database();
    const { account, keyId } = await accountWithKey();
    const imports = {
      recent: { status: "completed", completedAt: daysAgo(29) },
      month: { status: "completed", completedAt: daysAgo(31) },
      year: { status: "completed", completedAt: daysAgo(366) },
      running: { status: "running", completedAt: null },
    } as const;
    const ids = Object.fromEntries(Object.keys(imports).map((label) => [label, newId("listingImport")]));
    await db.insert(listingImports).values(
      Object.entries(imports).map(([label, row]) => ({
        id: ids[label],
        accountId: account.id,
        keyId,
        body: '{"external_ref":"r-1"}\n',
        total: 1,
        createdAt: daysAgo(400),
        ...row,
      })),
    );
    await db.insert(listingImportLines).values(Object.values(ids).map((importId) => ({ importId, line: 1, outcome: "created" as const })));

    for (const rule of retentionRules.filter((candidate) => candidate.table === listingImports))
      await applyRetentionRule(await database(), rule, now);

    const left = await db
      .select({ id: listingImports.id, body: listingImports.body })
      .from(listingImports)
      .where(eq(listingImports.accountId, account.id));
    const state = Object.fromEntries(
      Object.entries(ids).map(([label, id]) => {
        const row = left.find((candidate) => candidate.id === id);
        return [label, !row ? "deleted" : row.body === null ? "no lines" : "lines"];
      }),
    );
    expect(state).toEqual({ recent: "lines", month: "no lines", year: "deleted", running: "lines" });
    const results = await db
      .select({ importId: listingImportLines.importId })
      .from(listingImportLines)
      .where(eq(listingImportLines.importId, ids.year));
    expect(results).toEqual([]);
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
    expect(partitionedTables.map((target) => [target.table, target.period, target.keepDays])).toEqual([
      ["api_log", "week", 365],
      ["api_log_bodies", "day", 30],
    ]);
    // Events are partitioned by ranges of seq, kept 35 days (tests/events/retention.test.ts).
    expect(eventKeepDays).toBe(35);
    expect(retentionRules.map((rule) => [rule.name, rule.keepDays])).toEqual(
      expect.arrayContaining([
        ["jobs.done", 7],
        ["jobs.failed", 30],
        ["listing_imports.body", 30],
        ["listing_imports", 365],
      ]),
    );
  });
});
