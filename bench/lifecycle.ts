import postgres, { type Sql } from "postgres";
import { openDatabase, type Database } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { createThrowawayDatabase } from "@/db/throwaway";
import { operatorContext } from "@/lib/base/context";

/**
 * The shell of `npm run bench` and `npm run soak`: runs `main`, then the clean-up steps it
 * registered (servers stopped, database dropped) in reverse order, once, also on Ctrl-C and
 * SIGTERM, and exits with `main`'s code (1 when it throws).
 */
export async function runScript(
  name: string,
  log: (line: string) => void,
  main: (cleanup: (step: () => Promise<void>) => void) => Promise<number>,
): Promise<never> {
  const steps: (() => Promise<void>)[] = [];
  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      for (const step of steps.reverse()) await step().catch((error: Error) => log(`clean-up: ${error.message}`));
    })());
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void cleanUp().then(() => process.exit(130)));
  const code = await main((step) => steps.push(step)).catch((error: Error) => {
    console.error(`${name} failed: ${error.stack ?? error.message}`);
    return 1;
  });
  await cleanUp();
  process.exit(code);
}

/** A positive number from the environment variable `name`, or `fallback` when it is not set. */
export function positiveEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

export type Cleanup = (step: () => Promise<void>) => void;

/**
 * A migrated throwaway database on `adminUrl`, dropped at clean-up: the product's handle (for its
 * services), a plain postgres.js client (for bulk SQL) and an operator context.
 */
export async function throwawayDatabase(adminUrl: string, label: string, log: (line: string) => void, cleanup: Cleanup) {
  const throwaway = await createThrowawayDatabase(adminUrl, label);
  log(`created database ${throwaway.name}`);
  cleanup(async () => {
    await throwaway.drop();
    log(`dropped database ${throwaway.name}`);
  });
  const database: Database = await openDatabase({ url: throwaway.url });
  cleanup(() => database.close());
  const pg: Sql = postgres(throwaway.url, { max: 2, onnotice: () => {} });
  cleanup(() => pg.end({ timeout: 5 }));
  await migrateDatabase(database);
  const ctx = operatorContext(database);
  return { throwaway, database, pg, ctx };
}
