import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { closeDatabase, configureDatabase, database } from "@/db";
import { createThrowawayDatabase, type ThrowawayDatabase } from "@/db/throwaway";
import { flushApiLog } from "@/lib/adapters/http/api-log";
import { databaseSettings } from "@/lib/base/config";
import { reachEnv, reachSettings } from "./run-database";

const adminUrl = process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** How a test file's database is set everywhere else (tests/setup/each-file.ts), put back by `dispose`. */
const fileSettings = () => ({ ...databaseSettings(), template: process.env.PGLITE_TEMPLATE });

/**
 * A database of its own for a test that runs the product in child processes (a server, a worker)
 * and checks their rows from this process: made by `prepare`, which points this process's
 * `database()` at it, handed to a child through `childEnv`, removed by `dispose`.
 */
export interface ChildDatabase {
  name: string;
  prepare(): Promise<void>;
  /** Before a child starts: a PGlite folder is opened by one process at a time (this process opens it again afterwards). */
  letGo(): Promise<void>;
  /** The variables that point a child at this database. */
  childEnv(): Record<string, string>;
  dispose(): Promise<void>;
}

/** A throwaway PostgreSQL database on `PG_ADMIN_URL`, not the run's shared one (whose other files' rows a child would claim). */
export function postgresChildDatabase(prefix: string): ChildDatabase {
  let throwaway: ThrowawayDatabase | undefined;
  return {
    name: "PostgreSQL",
    prepare: async () => {
      throwaway = await createThrowawayDatabase(adminUrl, prefix);
      await closeDatabase();
      configureDatabase(() => ({ ...reachSettings(throwaway!.url), dataDir: "memory://" }));
    },
    letGo: async () => undefined,
    childEnv: () => reachEnv(throwaway!.url),
    dispose: async () => {
      await closeDatabase();
      configureDatabase(fileSettings);
      await throwaway?.drop();
    },
  };
}

/**
 * Under `npm run test:pg`, the calling file (or describe block) runs on a database of its own: for
 * tests that run the embedded job runner or a delivery lane in this process, which claim every due
 * row of their database. On the run's shared one they would take other files' deliveries and photo
 * jobs while those files' tests look at them. Embedded, each file has a database of its own already.
 */
export function ownDatabaseOnPostgres(prefix: string): void {
  if (!process.env.DATABASE_URL) return;
  const own = postgresChildDatabase(prefix);
  beforeAll(() => own.prepare());
  afterAll(async () => {
    // Requests made by the tests left API log entries: written to this database, before it goes.
    await flushApiLog();
    await own.dispose();
  });
}

/** A PGlite folder, starting as the migrated template every test file loads; afterwards it is just opened. */
export function pgliteChildDatabase(prefix: string): ChildDatabase {
  let parent = "";
  let dir = "";
  let created = false;
  return {
    name: "PGlite (a folder)",
    prepare: async () => {
      parent = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
      dir = path.join(parent, "pglite");
      await closeDatabase();
      configureDatabase(() => ({ dataDir: dir, template: created ? undefined : process.env.PGLITE_TEMPLATE }));
      await database();
      created = true;
    },
    letGo: async () => {
      // Requests made by the set-up left API log entries whose timed write would open the folder again.
      await flushApiLog();
      await closeDatabase();
      // This process is alive, so its lock would keep the child out; the database is closed.
      rmSync(`${dir}.lock`, { force: true });
    },
    childEnv: () => ({ PGLITE_DIR: dir }),
    dispose: async () => {
      await closeDatabase();
      configureDatabase(fileSettings);
      if (parent) rmSync(parent, { recursive: true, force: true });
    },
  };
}
