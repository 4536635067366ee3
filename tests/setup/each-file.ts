import { appendFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, vi } from "vitest";
import { database, databaseOpened } from "@/db";
import { resetConfig } from "@/lib/base/config";
import { boot } from "@/lib/adapters/boot";
import { flushApiLog } from "@/lib/adapters/http/api-log";
import { resetRateLimiter } from "@/lib/infra/rate-limit";
import { auditApiLog } from "../support/api-log-audit";
import { createdKeys } from "../support/created-keys";
import { rememberTemplate, restoreTemplate, templateRemembered } from "../support/test-database";
import { onPostgresRun } from "../support/engine";

/**
 * Runs around every integration test file. The files of a worker run one after another in one
 * process (the project's `isolate: false`), so what one file changes of the process is put back
 * here before the next one starts: the environment, the settings read from it, the rate limiter's
 * memory and, embedded, the database.
 *
 * The database: on PostgreSQL (DATABASE_URL) the whole run shares the run's database, as many
 * instances of the server would. Embedded, each worker loads the migrated template (global.ts) into
 * memory once, and every file starts on it as the template was: it is restored after each file.
 */
// Started as the CLI is, once per worker (a later file's call answers the first's): the database
// where the environment says, embedded loaded from the migrated template.
await boot({ role: "cli", database: { template: process.env.PGLITE_TEMPLATE } });

/**
 * The worker's environment as it started, kept across its files (this file is evaluated again before
 * each of them). Every file starts from it: vitest's memory of stubbed variables is shared by the
 * worker's files too, so one file's `vi.stubEnv` left standing (or remembered with a value another
 * file had stubbed) could otherwise reach the next file, as UNSAFE_ALLOW_LOCAL_URLS once did.
 */
const workerEnvironment = ((globalThis as { workerEnvironment?: NodeJS.ProcessEnv }).workerEnvironment ??= { ...process.env });

function restoreEnvironment() {
  vi.unstubAllEnvs();
  for (const name of Object.keys(process.env)) if (!(name in workerEnvironment)) delete process.env[name];
  Object.assign(process.env, workerEnvironment);
  resetConfig();
}

restoreEnvironment();

beforeAll(async () => {
  if (!onPostgresRun && !templateRemembered()) await rememberTemplate(await database());
});

/**
 * The API log is audited as an attacker with a copy of it would read it: no column of any row may
 * hold the secret of a key the tests created, nor anything in our key format. Embedded, this file's
 * rows are audited now (they go with the restore); on PostgreSQL each file leaves its keys for the
 * audit of every row of the run, once, after every file (tests/audit).
 */
afterAll(async () => {
  const keys = createdKeys.splice(0);
  try {
    await afterFile(keys);
  } finally {
    restoreEnvironment();
    resetRateLimiter();
  }
});

async function afterFile(keys: string[]) {
  if (databaseOpened()) {
    await flushApiLog();
    if (onPostgresRun) {
      appendFileSync(path.join(process.env.TEST_KEYS_DIR!, `${process.pid}.txt`), keys.map((key) => `${key}\n`).join(""));
    } else {
      const db = await database();
      expect(await auditApiLog(db, keys), "API log rows holding a key secret").toEqual([]);
      await restoreTemplate(db);
    }
  }
}
