/**
 * `tsx scripts/with-postgres.ts <command...>`: runs the command against a throwaway database created
 * for this run on `PG_ADMIN_URL`, through a PgBouncer of its own in transaction mode, as a managed
 * PostgreSQL's pooled address would be: `DATABASE_URL` is the pooler's address, `DATABASE_URL_UNPOOLED`
 * the database's own (what migrations, `LISTEN` and the few tests that need a session use).
 * `PG_POOLER=none` leaves the pooler out (`DATABASE_URL` is then the direct address). Drops the
 * database and stops the pooler afterwards (also when the command fails or is interrupted) and exits
 * with the command's code.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { startPgBouncer, type PgBouncer } from "../db/pgbouncer";
import { createThrowawayDatabase, type ThrowawayDatabase } from "../db/throwaway";

const adminUrl = process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: tsx scripts/with-postgres.ts <command...>");
  process.exit(2);
}

let throwaway: ThrowawayDatabase;
try {
  throwaway = await createThrowawayDatabase(adminUrl, "test");
} catch (error) {
  console.error(`with-postgres: cannot create a database on ${redact(adminUrl)}: ${(error as Error).message}`);
  process.exit(1);
}
console.error(`with-postgres: created database ${throwaway.name}`);
let pooler: PgBouncer | undefined;
if (process.env.PG_POOLER !== "none") {
  try {
    pooler = await startPgBouncer(throwaway.url);
  } catch (error) {
    console.error(`with-postgres: ${(error as Error).message} (install Debian's pgbouncer, or run with PG_POOLER=none)`);
    await throwaway.drop();
    process.exit(1);
  }
  console.error(`with-postgres: PgBouncer in transaction mode at ${pooler.pooled(throwaway.url)}`);
}
const urls = pooler
  ? { DATABASE_URL: pooler.pooled(throwaway.url), DATABASE_URL_UNPOOLED: throwaway.url }
  : { DATABASE_URL: throwaway.url };

const exitCode = await new Promise<number>((resolve) => {
  const child = spawn(command, args, {
    stdio: "inherit",
    env: { ...process.env, ...urls },
  });
  // The child shares the terminal, so Ctrl-C reaches it directly; a signal sent to this process
  // alone is passed on, and the database is dropped once the child has gone.
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  child.on("error", (error) => {
    console.error(`with-postgres: cannot run ${command}: ${error.message}`);
    resolve(127);
  });
  child.on("exit", (code, signal) => resolve(code ?? 128 + (signal ? constants.signals[signal] : 0)));
});

await pooler?.stop();
try {
  await throwaway.drop();
  console.error(`with-postgres: dropped database ${throwaway.name}`);
} catch (error) {
  console.error(`with-postgres: could not drop database ${throwaway.name}: ${(error as Error).message}`);
}
process.exit(exitCode);

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
