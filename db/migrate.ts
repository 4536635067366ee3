import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Sql } from "postgres";
import { openDatabase, type Database } from "./client";

const migrationsFolder = path.resolve(process.cwd(), "db/migrations");

/** A committed migration: drizzle-kit's journal entry for `db/migrations/<tag>.sql`, made at `when` (ms). */
export interface Migration {
  tag: string;
  when: number;
}

/** The committed migrations, in order, from drizzle-kit's journal (`db/migrations/meta/_journal.json`). */
export function committedMigrations(): Migration[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as { entries: Migration[] };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/**
 * The key of the PostgreSQL session advisory lock migrators hold (`"migr"`; the one-number form,
 * which never meets the two-number locks of lib/domain). Below 2^31, so `pg_locks` shows it as
 * `classid = 0, objid = migrationLockKey, objsubid = 1`.
 */
export const migrationLockKey = 0x6d696772;

/** Where drizzle's migrator records what it applied: one row per migration, `created_at` its journal `when`. */
const migrationsTable = "drizzle.__drizzle_migrations";

/**
 * The committed migrations the database lacks, by drizzle's own rule: those made after the newest
 * row of `drizzle.__drizzle_migrations`, exactly what its migrator would apply. Empty when the
 * database is as new as this release or newer (a later release migrated it: rows this release does
 * not know are ignored).
 */
export async function pendingMigrations(database: Database): Promise<Migration[]> {
  const committed = committedMigrations();
  const [{ present }] = await database.rows<{ present: boolean }>(sql`select to_regclass(${migrationsTable}) is not null as present`);
  if (!present) return committed;
  const [{ last }] = await database.rows<{ last: string | null }>(
    sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`,
  );
  return last === null ? committed : committed.filter((migration) => migration.when > Number(last));
}

/** Opening the database refused to go on: it lacks migrations this release's code needs. */
export class SchemaBehindError extends Error {
  constructor(readonly pending: Migration[]) {
    super(
      `the database schema is behind this release: run npm run db:migrate (${pending.length} pending: ${pending.map((m) => m.tag).join(", ")})`,
    );
  }
}

/** Throws SchemaBehindError when the database lacks a committed migration; a newer schema is fine. */
export async function verifySchema(database: Database): Promise<void> {
  const pending = await pendingMigrations(database);
  if (pending.length) throw new SchemaBehindError(pending);
}

/**
 * Applies the committed drizzle-kit migrations the database lacks and returns them (none: nothing
 * was pending). Both drivers run the same files through drizzle's migrator, which is not safe run
 * twice at once: each run reads the newest applied row, then applies everything after it in one
 * transaction, so two runs on a fresh database both create the same tables and one fails (even its
 * `create schema if not exists` can). On PostgreSQL every run therefore holds an advisory lock
 * around it: a second migrator waits, then finds nothing pending. An embedded PGlite folder is
 * opened by one process only (db/lock.ts), so there is nothing to race. Behind a transaction-mode
 * pooler the lock and the migrator's statements could each run in another session, so it migrates
 * on the direct address.
 */
export async function migrateDatabase(database: Database): Promise<Migration[]> {
  if (database.driver === "pglite") {
    const pending = await pendingMigrations(database);
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(database.connection as never, { migrationsFolder });
    return pending;
  }
  if (database.directUrl) {
    const direct = await openDatabase({ url: database.directUrl, poolSize: 2 });
    try {
      return await migrateDatabase(direct);
    } finally {
      await direct.close();
    }
  }
  return holdingMigrationLock(database, async () => {
    // Read under the lock: what an earlier holder applied is committed by now.
    const pending = await pendingMigrations(database);
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    await migrate(database.connection as never, { migrationsFolder });
    return pending;
  });
}

/**
 * Runs `work` while this process holds the migration lock: a session lock taken on a connection
 * reserved for it (drizzle's migrator runs on the pool's others, in its transaction), so it covers
 * the migrator's statements outside that transaction too. Released after, or by PostgreSQL when the
 * process dies.
 */
async function holdingMigrationLock<T>(database: Database, work: () => Promise<T>): Promise<T> {
  const client = (database.connection as unknown as { $client: Sql }).$client;
  if (client.options.max < 2) throw new Error("migrating PostgreSQL needs a pool of 2 connections or more: one holds the migration lock");
  const holder = await client.reserve();
  try {
    await holder`select pg_advisory_lock(${migrationLockKey}::bigint)`;
    try {
      return await work();
    } finally {
      await holder`select pg_advisory_unlock(${migrationLockKey}::bigint)`;
    }
  } finally {
    holder.release();
  }
}
