import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Database } from "@/db";

export const root = path.resolve(import.meta.dirname, "../..");
const committedFolder = path.join(root, "db/migrations");
const tsx = path.join(root, "node_modules/.bin/tsx");

/**
 * A database as an earlier release left it: drizzle's own migrator run over a copy of
 * `db/migrations` whose journal is cut after its first `count` entries.
 */
export async function migrateFirst(database: Database, count: number): Promise<void> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "listings-migrations-"));
  try {
    mkdirSync(path.join(folder, "meta"));
    for (const file of readdirSync(committedFolder))
      if (file.endsWith(".sql")) copyFileSync(path.join(committedFolder, file), path.join(folder, file));
    const journal = JSON.parse(readFileSync(path.join(committedFolder, "meta/_journal.json"), "utf8")) as { entries: unknown[] };
    writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, count) }));
    const { migrate } =
      database.driver === "pglite" ? await import("drizzle-orm/pglite/migrator") : await import("drizzle-orm/postgres-js/migrator");
    await migrate(database.connection as never, { migrationsFolder: folder });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `tsx <script> <args>` from the repository's root, as a process of its own, with `env` over this one's. */
export function runScript(script: string, args: string[], env: Record<string, string | undefined>): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // The tests' migrated PGlite dump is for the embedded database; these processes open the one `env` names.
  delete childEnv.PGLITE_TEMPLATE;
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [path.join(root, script), ...args], { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The JSON lines a process logged on stderr (lib/base/logger.ts). */
export const loggedLines = (stderr: string) =>
  stderr
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { level: string; message: string });
