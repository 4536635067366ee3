/**
 * `tsx scripts/with-postgres.ts <command...>`: runs the command with `DATABASE_URL` pointing at a
 * throwaway database created for this run on `PG_ADMIN_URL`, drops that database afterwards
 * (also when the command fails or is interrupted) and exits with the command's code.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { constants } from "node:os";
import postgres from "postgres";

const adminUrl = process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: tsx scripts/with-postgres.ts <command...>");
  process.exit(2);
}

const name = `test_${new Date().toISOString().slice(0, 10).replaceAll("-", "")}_${randomBytes(5).toString("hex")}`;
const databaseUrl = new URL(adminUrl);
databaseUrl.pathname = `/${name}`;

const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
try {
  await admin.unsafe(`create database "${name}"`);
} catch (error) {
  console.error(`with-postgres: cannot create a database on ${redact(adminUrl)}: ${(error as Error).message}`);
  await admin.end();
  process.exit(1);
}
console.error(`with-postgres: created database ${name}`);

const exitCode = await new Promise<number>((resolve) => {
  const child = spawn(command, args, {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: databaseUrl.toString() },
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

try {
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  console.error(`with-postgres: dropped database ${name}`);
} catch (error) {
  console.error(`with-postgres: could not drop database ${name}: ${(error as Error).message}`);
} finally {
  await admin.end();
}
process.exit(exitCode);

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
