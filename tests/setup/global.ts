import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";

/**
 * Migrates the database once for the whole run. On PostgreSQL (DATABASE_URL) that is the run's
 * throwaway database; embedded, it is a PGlite dump every test file loads into its own memory.
 */
export default async function setup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    const database = await openDatabase({ url: process.env.DATABASE_URL, poolSize: 1 });
    await migrateDatabase(database);
    await database.close();
    return;
  }
  const database = await openDatabase({ dataDir: "memory://" });
  await migrateDatabase(database);
  const dump = await database.pglite!.dumpDataDir("gzip");
  await database.close();
  const dir = path.resolve(".data/test");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `template-${process.pid}.tar.gz`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.PGLITE_TEMPLATE = file;
}
