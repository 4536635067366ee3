import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";

/**
 * Once per run, in vitest's own process (each project that uses it calls it; the first one does the
 * work): the migrated PGlite template every embedded database is loaded from, and, on PostgreSQL
 * (DATABASE_URL), the run's throwaway database migrated and the folder where each test file leaves
 * the keys it made, for the audit of the run's whole API log (tests/audit).
 */
export default async function setup(): Promise<(() => Promise<void>) | void> {
  if (process.env.PGLITE_TEMPLATE) return;
  const dir = path.resolve(".data/test");
  mkdirSync(dir, { recursive: true });
  // Uncompressed: each worker loads it in about 1 s rather than 2 s for the gzipped dump.
  const embedded = await openDatabase({ dataDir: "memory://" });
  await migrateDatabase(embedded);
  const dump = await embedded.pglite!.dumpDataDir("none");
  await embedded.close();
  const template = path.join(dir, `template-${process.pid}.tar`);
  writeFileSync(template, Buffer.from(await dump.arrayBuffer()));
  process.env.PGLITE_TEMPLATE = template;

  const removeTemplate = () => rmSync(template, { force: true });
  if (!process.env.DATABASE_URL) return () => Promise.resolve(removeTemplate());
  // Two connections: the migrator holds its lock on one (db/migrate.ts), on the direct address when
  // DATABASE_URL is the pooler's (scripts/with-postgres.ts).
  const shared = await openDatabase({ url: process.env.DATABASE_URL_UNPOOLED ?? process.env.DATABASE_URL, poolSize: 2 });
  await migrateDatabase(shared);
  await shared.close();
  // Each test file writes the keys it made here (tests/setup/each-file.ts).
  const keysDir = mkdtempSync(path.join(dir, "keys-"));
  process.env.TEST_KEYS_DIR = keysDir;
  return () => {
    removeTemplate();
    rmSync(keysDir, { recursive: true, force: true });
    return Promise.resolve();
  };
}
