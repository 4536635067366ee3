import { sql } from "drizzle-orm";
import { migrate as drizzleMigrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "@/db";
import { openDatabase } from "@/db/client";
import { committedMigrations, migrateDatabase, migrationLockKey, pendingMigrations } from "@/db/migrate";
import { createThrowawayDatabase, type ThrowawayDatabase } from "@/db/throwaway";
import { loggedLines, migrateFirst, root, runScript } from "./support";
import { reachEnv } from "../support/run-database";
import { onPostgresRun } from "../support/engine";

/**
 * Migrations as a release step, on PostgreSQL with real processes: `npm run db:migrate` (the CLI's
 * `db:migrate`, what the script runs) twice at once on one fresh database, and the production
 * server's start-up on a database an earlier release migrated. Each test has a throwaway database
 * of its own on `PG_ADMIN_URL`; they run with `npm run test:pg`.
 */

const adminUrl = process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
if (!onPostgresRun) console.info("Migration release-step tests skipped: they run on PostgreSQL, with npm run test:pg");

const committed = committedMigrations();
const tags = (migrations: { tag: string }[]) => migrations.map((migration) => migration.tag);
const production = {
  APP_ENV: "production",
  AUTH_SECRET: "a-test-only-auth-secret-of-32-characters-or-more",
  ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString("base64")}`,
  SMTP_URL: "smtp://127.0.0.1:1",
};

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function throwaway(label: string): Promise<ThrowawayDatabase & { open: (poolSize?: number) => Promise<Database> }> {
  const created = await createThrowawayDatabase(adminUrl, label);
  cleanups.push(() => created.drop());
  return {
    ...created,
    open: async (poolSize) => {
      const db = await openDatabase({ url: created.url, poolSize });
      cleanups.push(() => db.close());
      return db;
    },
  };
}

/** The public schema as one migrator leaves it: columns, indexes, constraints, and the rows migrations wrote. */
async function schemaOf(db: Database): Promise<unknown> {
  const columns = await db.rows(sql`select table_name, column_name, data_type, is_nullable, column_default
    from information_schema.columns where table_schema = 'public' order by 1, 2`);
  const indexes = await db.rows(sql`select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1`);
  const constraints = await db.rows(sql`select conrelid::regclass::text as "table", conname, pg_get_constraintdef(oid) as def
    from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2`);
  const tables = await db.rows<{ name: string }>(sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`);
  const rowCounts: Record<string, number> = {};
  for (const { name } of tables) {
    const [{ count }] = await db.rows<{ count: number }>(sql`select count(*)::int as count from ${sql.identifier(name)}`);
    rowCounts[name] = count;
  }
  return { columns, indexes, constraints, rowCounts };
}

const appliedRows = (db: Database) =>
  db.rows<{ created_at: string }>(sql`select created_at::text from drizzle.__drizzle_migrations order by id`);

describe.skipIf(!onPostgresRun)("two migrators at once on one fresh PostgreSQL database", () => {
  it("drizzle's migrator alone is not safe: of two runs started together, one fails", async () => {
    const target = await throwaway("test_migrate_race");
    const [a, b] = [await target.open(), await target.open()];
    const runs = await Promise.allSettled(
      [a, b].map((db) => drizzleMigrate(db.connection as never, { migrationsFolder: `${root}/db/migrations` })),
    );
    // Both read "nothing applied yet" and create the same tables: the second one's `create` (or even its
    // `create schema if not exists`) meets the first one's rows in the catalogue.
    expect(runs.map((run) => run.status).sort()).toEqual(["fulfilled", "rejected"]);
  });

  it(
    "`npm run db:migrate` twice at once: both exit 0, each migration is applied once, the schema is right",
    { timeout: 120_000 },
    async () => {
      const target = await throwaway("test_migrate_twice");
      // This test holds the migration lock while both start, so that both are seen waiting on it at once.
      const holder = postgres(target.url, { max: 1, onnotice: () => {} });
      cleanups.push(() => holder.end());
      await holder`select pg_advisory_lock(${migrationLockKey}::bigint)`;

      const env = { ...production, ...reachEnv(target.url) };
      const migrators = [runScript("scripts/cli.ts", ["db:migrate"], env), runScript("scripts/cli.ts", ["db:migrate"], env)];
      const waiting = async () => {
        const [{ count }] = await holder<{ count: number }[]>`select count(*)::int as count from pg_locks
        where locktype = 'advisory' and not granted and classid = 0 and objid = ${migrationLockKey} and objsubid = 1
          and database = (select oid from pg_database where datname = current_database())`;
        return count;
      };
      const deadline = Date.now() + 60_000;
      while ((await waiting()) < 2) {
        if (Date.now() > deadline) throw new Error("the two migrators never both waited on the migration lock");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await holder`select pg_advisory_unlock(${migrationLockKey}::bigint)`;

      const runs = await Promise.all(migrators);
      for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0, stderr: "" });
      const results = runs.map((run) => JSON.parse(run.stdout) as { applied: string[]; migrations: number; driver: string });
      // The first to get the lock applied every migration; the second found none pending.
      expect(results.map((result) => result.applied).sort((x, y) => y.length - x.length)).toEqual([tags(committed), []]);
      expect(results.map((result) => result.migrations)).toEqual([committed.length, committed.length]);

      const db = await target.open();
      expect((await appliedRows(db)).map((row) => Number(row.created_at))).toEqual(committed.map((migration) => migration.when));
      expect(await pendingMigrations(db)).toEqual([]);
      const reference = await throwaway("test_migrate_reference");
      const referenceDb = await reference.open();
      await migrateDatabase(referenceDb);
      expect(await schemaOf(db)).toEqual(await schemaOf(referenceDb));
    },
  );
});

describe.skipIf(!onPostgresRun)("the production server's start-up on PostgreSQL", () => {
  const start = (url: string, env: Record<string, string> = {}) =>
    runScript("tests/migrations/start-server.ts", [], {
      ...production,
      LOG_LEVEL: "info",
      MIGRATE_ON_START: undefined,
      ...reachEnv(url),
      ...env,
    });

  // Five processes one after another.
  it(
    "refuses a schema behind the code in one line, serves with MIGRATE_ON_START=1 after migrating, and serves an up-to-date or newer one",
    { timeout: 120_000 },
    async () => {
      const target = await throwaway("test_migrate_start");
      const db = await target.open();
      await migrateFirst(db, 10);
      const behind = committed.slice(10);

      // Behind: one line saying what to run, exit 1, the database untouched.
      const refused = await start(target.url);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe("");
      expect(loggedLines(refused.stderr)).toEqual([
        expect.objectContaining({
          level: "error",
          message: `the database schema is behind this release: run npm run db:migrate (${behind.length} pending: ${tags(behind).join(", ")})`,
        }),
      ]);
      expect(tags(await pendingMigrations(db))).toEqual(tags(behind));

      // The CLI, in production too, refuses any other command on it, and names what is missing.
      const command = await runScript("scripts/cli.ts", ["rates:list"], { ...production, ...reachEnv(target.url) });
      expect(command.code).toBe(1);
      expect(JSON.parse(command.stderr)).toEqual({ error: { code: "schema_behind", detail: expect.any(String), pending: tags(behind) } });

      // Told to migrate on start: it does, then serves.
      const migrating = await start(target.url, { MIGRATE_ON_START: "1" });
      expect(migrating, migrating.stderr).toMatchObject({ code: 0, stdout: "started\n", stderr: "" });
      expect(await pendingMigrations(db)).toEqual([]);
      expect((await appliedRows(db)).map((row) => Number(row.created_at))).toEqual(committed.map((migration) => migration.when));

      // Up to date: serves.
      const upToDate = await start(target.url);
      expect(upToDate, upToDate.stderr).toMatchObject({ code: 0, stdout: "started\n", stderr: "" });

      // Ahead (a newer release migrated it, this older instance still starts): serves, and migrates nothing.
      const later = committed.at(-1)!.when + 60_000;
      await db.connection.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('a later release', ${later})`);
      const ahead = await start(target.url);
      expect(ahead, ahead.stderr).toMatchObject({ code: 0, stdout: "started\n", stderr: "" });
      expect(await appliedRows(db)).toHaveLength(committed.length + 1);
    },
  );
});
