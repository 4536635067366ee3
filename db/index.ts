import { readFile } from "node:fs/promises";
import { processSlot } from "@/lib/base/process-registry";
import { openDatabase, type Database, type Pooling } from "./client";
import { acquireLock } from "./lock";
import { migrateDatabase, verifySchema } from "./migrate";
import { PoolerModeError, statementsCrossSessions } from "./pooling";

export type { Database, Connection, Transaction, Handle, Pooling } from "./client";
export { resultRows, PoolingSettingsError, ReplicaSettingsError } from "./client";
export type { Replica, ReplicaSet } from "./replicas";
export { PoolerModeError } from "./pooling";

// In the process registry, so that every bundle of the process shares one database (one PGlite instance per folder).
const opened = processSlot<Promise<Database>>("database");
const configured = processSlot<() => DatabaseSettings>("databaseSettings");

/** Where the process-wide database is. db/ reads no configuration: the process's entry point gives it this. */
export interface DatabaseSettings {
  /** PostgreSQL connection string; the embedded PGlite when absent. */
  url?: string;
  /** With `url`: what it is, PostgreSQL or a session pooler (`session`, the default) or a transaction pooler. */
  pooling?: Pooling;
  /** With `pooling: "transaction"`: the direct address, for migrations and `LISTEN`. */
  directUrl?: string;
  /** With `url`: read replicas of its database, reached as `url` is (`pooling`); none when absent. */
  replicaUrls?: string[];
  /** With `url`: the pool's connections (10 when absent). */
  poolSize?: number;
  /** Without `url`: the PGlite folder (locked while open), or a `memory://` name. */
  dataDir: string;
  /** A PGlite dump to start from instead of an empty folder (tests load a migrated template). */
  template?: string;
  /**
   * What opening does about the committed migrations: `apply` the pending ones (the default), `verify`
   * that none is pending (a production server on PostgreSQL, which migrates as a release step: it
   * throws SchemaBehindError), or `none` (the migrator itself, which says what it applied).
   */
  migrations?: "apply" | "verify" | "none";
}

/**
 * Called by each entry point (server start-up, the CLI, the test setup) before the first `database()`.
 * A function, read when the database opens, so a process that closes it and changes its
 * environment (tests) opens the next one where the environment now says.
 */
export function configureDatabase(settings: () => DatabaseSettings): void {
  configured.set(settings);
}

/** The process-wide database, opened on first use and migrated (or verified) as its settings say. */
export function database(): Promise<Database> {
  return opened.getOrMake(() =>
    open().catch((error: unknown) => {
      opened.set(undefined);
      throw error;
    }),
  );
}

async function open(): Promise<Database> {
  const settings = configured.get()?.();
  if (!settings) throw new Error("database() before configureDatabase(): the process's entry point says where the database is");
  if (!settings.url && !settings.dataDir.startsWith("memory://")) acquireLock(settings.dataDir);
  // A transaction pooler taken for a session would fail named statements (or run another of the same name): refuse to start.
  if (settings.url && settings.pooling !== "transaction" && (await statementsCrossSessions(settings.url))) throw new PoolerModeError();
  const db = settings.url
    ? await openDatabase({
        url: settings.url,
        poolSize: settings.poolSize,
        pooling: settings.pooling,
        directUrl: settings.directUrl,
        replicaUrls: settings.replicaUrls,
      })
    : await openDatabase({
        dataDir: settings.dataDir,
        replicaUrls: settings.replicaUrls,
        loadFrom: settings.template ? new Blob([await readFile(settings.template)]) : undefined,
      });
  try {
    const migrations = settings.migrations ?? "apply";
    if (migrations === "apply") await migrateDatabase(db);
    else if (migrations === "verify") await verifySchema(db);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}

/** Whether this process has opened its database (tests look at it without opening one). */
export const databaseOpened = (): boolean => opened.get() !== undefined;

export async function closeDatabase(): Promise<void> {
  const pending = opened.get();
  opened.set(undefined);
  if (pending) await (await pending).close();
}
