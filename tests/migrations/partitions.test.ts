import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "@/db";
import { openDatabase } from "@/db/client";
import { committedMigrations, migrateDatabase } from "@/db/migrate";
import { createThrowawayDatabase } from "@/db/throwaway";
import { migrateFirst } from "./support";
import { onPostgresRun } from "../support/engine";

/**
 * Migration 0017 turns api_log and events into tables partitioned by week without losing a row: on a
 * database left by the release before it, filled with rows over more than a year (and some in the
 * future), every row is there afterwards with the same content, each in its week's partition or in
 * the DEFAULT one. Migration 0018 then moves the bodies of the last 30 days into `api_log_bodies`,
 * partitioned by day, and drops the older ones; migration 0020 moves every event into partitions by
 * ranges of seq. In-memory PGlite, and with `npm run test:pg` a fresh
 * PostgreSQL database too.
 */
const adminUrl = process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const migrationIndex = (prefix: string) => committedMigrations().findIndex((migration) => migration.tag.startsWith(prefix));

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function freshDatabase(driver: "pglite" | "postgres"): Promise<Database> {
  if (driver === "pglite") {
    const db = await openDatabase({ dataDir: "memory://" });
    cleanups.push(() => db.close());
    return db;
  }
  const created = await createThrowawayDatabase(adminUrl, "partitions");
  cleanups.push(() => created.drop());
  const db = await openDatabase({ url: created.url, poolSize: 2 });
  cleanups.push(() => db.close());
  return db;
}

// Days from today (negative: past): some in partitions the migration creates, some before them
// (older than the retention) or after them (more than a week ahead): those land in DEFAULT.
const days = [-400, -364, -200, -100, -40, -36, -34, -10, -1, 0, 3, 30];
const rowsPerDay = 25;

async function fill(db: Database): Promise<void> {
  await db.connection.execute(sql`insert into accounts (id, email, name, password_hash) values ('acc_part', 'p@example.com', 'P', 'x')`);
  for (const day of days) {
    await db.connection.execute(sql`insert into api_log (request_id, key_id, account_id, method, path, query, status, duration_ms, ip,
        request_body, response_body, created_at)
      select 'r' || ${day}::int || '-' || n, 'key_' || n % 3, 'acc_part', 'GET', '/api/v1/listings/' || n, null, 200 + n % 4, n, '10.0.0.1',
        jsonb_build_object('n', n), jsonb_build_object('day', ${day}::int), now() + make_interval(days => ${day}::int, secs => n * 60)
      from generate_series(1, ${rowsPerDay}::int) as n`);
    await db.connection.execute(sql`insert into events (account_id, type, data, created_at)
      select 'acc_part', 'listing.updated', jsonb_build_object('n', n), now() + make_interval(days => ${day}::int, secs => n * 60)
      from generate_series(1, ${rowsPerDay}::int) as n`);
  }
}

/** Every row as text, in key order: equal before and after means no row lost, added or changed. */
async function contents(db: Database) {
  const [result] = await db.rows<{ logRows: number; logSum: string; eventRows: number; eventSum: string }>(sql`select
    (select count(*)::int from api_log) as "logRows",
    (select md5(string_agg(t::text, '|' order by id)) from api_log t) as "logSum",
    (select count(*)::int from events) as "eventRows",
    (select md5(string_agg(t::text, '|' order by seq)) from events t) as "eventSum"`);
  return result;
}

const day = 86_400_000;

const dayStart = (at: number) => Math.floor(at / day) * day;
/** The Monday 00:00 UTC of the week `at` is in: where the migration's partitions start. */
function weekStart(at: number): number {
  const midnight = dayStart(at);
  return midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * day;
}

/**
 * Where each row of `table` is, against where it belongs: the partition of its week (its day for the
 * bodies) from `firstDaysBack` days back to a week ahead (the migration's), DEFAULT otherwise.
 */
async function misplaced(db: Database, table: "api_log" | "api_log_bodies" | "events", firstDaysBack: number) {
  const rows = await db.rows<{ partition: string; at: string }>(
    sql`select tableoid::regclass::text as partition, created_at::text as at from ${sql.identifier(table)}`,
  );
  const periodStart = table === "api_log_bodies" ? dayStart : weekStart;
  const first = periodStart(Date.now() - firstDaysBack * day);
  const end = table === "api_log_bodies" ? dayStart(Date.now()) + 8 * day : weekStart(Date.now() + 7 * day) + 7 * day;
  const expected = (at: number) =>
    at < first || at >= end ? `${table}_default` : `${table}_p${new Date(periodStart(at)).toISOString().slice(0, 10).replaceAll("-", "")}`;
  return rows.filter((row) => row.partition !== expected(Date.parse(row.at.replace(" ", "T").replace(/\+00$/, "Z"))));
}

/** The API log's columns but the bodies, as text in id order, and its bodies of the last 30 days. */
async function logParts(db: Database, bodiesFrom: "api_log" | "api_log_bodies") {
  const [result] = await db.rows<{ metaSum: string; recentBodies: string; bodyRows: number }>(sql`select
    (select md5(string_agg(concat_ws(',', id, request_id, key_id, account_id, method, path, query, status, duration_ms, ip, created_at), '|' order by id))
      from api_log) as "metaSum",
    (select md5(string_agg(concat_ws(',', id, request_body, response_body, created_at), '|' order by id)) from ${sql.identifier(bodiesFrom)}
      where created_at >= now() - interval '30 days') as "recentBodies",
    (select count(*)::int from ${sql.identifier(bodiesFrom)} where request_body is not null or response_body is not null) as "bodyRows"`);
  return result;
}

describe.each(["pglite", "postgres"] as const)("migrations 0017, 0018 and 0020 on %s", (driver) => {
  it.skipIf(driver === "postgres" && !onPostgresRun)(
    "move every API log row and event into week partitions, the rest into DEFAULT, then the last 30 days' bodies into day partitions",
    { timeout: 120_000 },
    async () => {
      const db = await freshDatabase(driver);
      await migrateFirst(db, migrationIndex("0017_"));
      await fill(db);
      const old = await contents(db);
      expect(old.logRows).toBe(days.length * rowsPerDay);

      await migrateFirst(db, migrationIndex("0018_"));

      expect(await contents(db)).toEqual(old);
      const [{ partitioned }] = await db.rows<{ partitioned: number }>(
        sql`select count(*)::int as partitioned from pg_partitioned_table where partrelid in ('api_log'::regclass, 'events'::regclass)`,
      );
      expect(partitioned).toBe(2);
      for (const [table, keepDays] of [
        ["api_log", 365],
        ["events", 35],
      ] as const) {
        expect(await misplaced(db, table, keepDays + 1)).toEqual([]);
        const [{ inDefault }] = await db.rows<{ inDefault: number }>(
          sql`select count(*)::int as "inDefault" from ${sql.identifier(`${table}_default`)}`,
        );
        // Some rows of each table are older than its partitions or more than a week ahead.
        expect(inDefault).toBeGreaterThan(0);
      }

      const beforeBodies = await logParts(db, "api_log");
      await migrateDatabase(db);
      const afterBodies = await logParts(db, "api_log_bodies");
      expect(afterBodies.metaSum).toBe(beforeBodies.metaSum);
      expect(afterBodies.recentBodies).toBe(beforeBodies.recentBodies);
      // Only the days from -10 on had bodies younger than 30 days: the older ones are gone.
      expect(afterBodies.bodyRows).toBe(days.filter((offset) => offset >= -10).length * rowsPerDay);
      expect(await misplaced(db, "api_log_bodies", 30)).toEqual([]);
      const [{ bodyColumns }] = await db.rows<{ bodyColumns: number }>(
        sql`select count(*)::int as "bodyColumns" from information_schema.columns where table_name = 'api_log' and column_name like '%_body'`,
      );
      expect(bodyColumns).toBe(0);
      // Migration 0020: events partitioned by ranges of seq instead, every event kept, none left in DEFAULT.
      expect((await contents(db)).eventSum).toBe(old.eventSum);
      expect(await db.rows(sql`select tableoid::regclass::text as partition, count(*)::int as events from events group by 1`)).toEqual([
        { partition: "events_s0000000", events: days.length * rowsPerDay },
      ]);
      const [{ seq, partition }] = await db.rows<{ seq: number; partition: string }>(
        sql`insert into events (account_id, type, data) values ('acc_part', 'listing.sold', '{}') returning seq::int as seq, tableoid::regclass::text as partition`,
      );
      expect({ seq, partition }).toEqual({ seq: days.length * rowsPerDay + 1, partition: "events_s0000000" });
      // The sequences go on after the moved rows: a new row gets a new id.
      const [{ id }] = await db.rows<{ id: number }>(
        sql`insert into api_log (request_id, method, path, status, duration_ms) values ('new', 'GET', '/', 200, 1) returning id::int as id`,
      );
      expect(id).toBe(days.length * rowsPerDay + 1);
    },
  );
});
