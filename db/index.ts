import { readFile } from "node:fs/promises";
import { config } from "@/lib/platform/config";
import { openDatabase, type Database } from "./client";
import { acquireLock } from "./lock";
import { migrateDatabase } from "./migrate";

export type { Database, Db, Tx, Queryable } from "./client";

// Route handlers and instrumentation are separate bundles in one process: the handle lives on
// globalThis so that they all share one database (one PGlite instance per folder).
const holder = globalThis as typeof globalThis & { __listingsDb?: Promise<Database> };

/** The process-wide database, opened and migrated on first use. */
export function database(): Promise<Database> {
  holder.__listingsDb ??= open().catch((error) => {
    holder.__listingsDb = undefined;
    throw error;
  });
  return holder.__listingsDb;
}

async function open(): Promise<Database> {
  const c = config();
  if (c.DATABASE_URL) {
    const db = await openDatabase({ url: c.DATABASE_URL });
    await migrateDatabase(db);
    return db;
  }
  const inMemory = c.PGLITE_DIR.startsWith("memory://");
  if (!inMemory) acquireLock(c.dataDir);
  const template = process.env.PGLITE_TEMPLATE;
  const db = await openDatabase({
    dataDir: inMemory ? c.PGLITE_DIR : c.dataDir,
    loadFrom: template ? new Blob([await readFile(template)]) : undefined,
  });
  await migrateDatabase(db);
  return db;
}

/** Whether this process has opened its database (tests look at it without opening one). */
export const databaseOpened = (): boolean => holder.__listingsDb !== undefined;

export async function closeDatabase(): Promise<void> {
  const pending = holder.__listingsDb;
  holder.__listingsDb = undefined;
  if (pending) await (await pending).close();
}
