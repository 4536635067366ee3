import { sql } from "drizzle-orm";
import {
  configureDatabase,
  database,
  PoolerModeError,
  PoolingSettingsError,
  ReplicaSettingsError,
  type Database,
  type DatabaseSettings,
} from "@/db";
import { exitOnUnpatchedDriver } from "@/db/driver-patch";
import { databaseUnavailable, unreachableMessage } from "@/db/errors";
import { DatabaseInUseError } from "@/db/lock";
import { SchemaBehindError } from "@/db/migrate";
import { config, databaseSettings, mailDelivery } from "@/lib/base/config";
import { systemContext } from "@/lib/base/context";
import { logger } from "@/lib/base/logger";
import { unsupportedNodeMessage } from "@/lib/base/node-version";
import { demoEmail, sandboxPassword, seedSandbox } from "@/lib/domain/seed";
import { issueDevConsoleKey } from "@/lib/domain/seed/dev-console-key";
import { upgradeSandboxReceiverUrls } from "@/lib/domain/webhooks/sandbox-receiver";

/*
 * The steps of a server's or a worker's start-up that boot() (boot.ts) runs: the refusals, the
 * database opened (which creates and migrates it; in production on PostgreSQL, unless
 * `MIGRATE_ON_START=1`, only checks that its schema is not behind: config.ts `databaseSettings`), and
 * the sandbox: seeded when empty, and its webhooks moved off the receiver's addresses of before its
 * tokens. Under `next dev` the demo account is printed with a fresh key once the warm-up has
 * compiled the quickstart's routes (`announceSandbox`).
 */

/** Stops the process, with one line saying why, on settings it must not run with; warns once about mail without SMTP. */
export function checkStartUp(): void {
  exitOnUnsupportedNode();
  exitOnUnpatchedDriver((line) => logger.error(line));
  const c = config();
  if (c.APP_ENV === "production" && !c.AUTH_SECRET) {
    // Portal sessions are sealed with it; a production secret made up at start would sign everyone out on each restart.
    logger.error("AUTH_SECRET is required with APP_ENV=production (32 characters or more, e.g. `openssl rand -base64 32`)");
    process.exit(1);
  }
  if (c.APP_ENV === "production" && c.UNSAFE_ALLOW_LOCAL_URLS === "1") {
    // Outbound requests ignore it in production (config.ts); a deployment that sets it expects receivers on this
    // machine that it will not get, so it stops and says so rather than behave differently than configured.
    logger.error("UNSAFE_ALLOW_LOCAL_URLS=1 is for local testing only and refused with APP_ENV=production: unset it");
    process.exit(1);
  }
  if (c.APP_ENV === "production" && !c.ENCRYPTION_KEYS) {
    // Stored secrets have keys of their own there, so rotating AUTH_SECRET never touches them (docs/operations.md, Rotating secrets).
    logger.error(
      "ENCRYPTION_KEYS is required with APP_ENV=production: `id:base64key`, e.g. `k1:` followed by `openssl rand -base64 32` (docs/operations.md, Rotating secrets)",
    );
    process.exit(1);
  }
  // Sending mail in production without SMTP fails (lib/infra/mail); say so once, at start-up, not at the first sign-up.
  if (mailDelivery() === "none")
    logger.warn("mail is not configured: set SMTP_URL (with APP_ENV=production there is no sandbox mailbox, so sending mail fails)");
}

/** Says where the database is (the configuration's settings, with `overrides`) and opens it; a database it cannot use stops the process with one line. */
export async function openDatabaseOrExit(overrides: Partial<DatabaseSettings> = {}): Promise<Database> {
  configureDatabase(() => ({ ...databaseSettings(), ...overrides }));
  return openOrExplain();
}

/** The sandbox's start: seeded when empty, and its receiver's addresses upgraded. */
export async function prepareSandbox(db: Database): Promise<void> {
  const c = config();
  if (c.APP_ENV !== "sandbox") return;
  const ctx = systemContext(db);
  if (await isEmpty(db)) {
    // The photos by the job runner, in the background: the server is ready without waiting for them.
    const seeded = await seedSandbox({ ctx, photoProcessing: "by the job" });
    logger.info("sandbox seeded", { seeded: seeded.seeded });
  }
  const upgraded = await upgradeSandboxReceiverUrls({ ctx });
  if (upgraded > 0)
    logger.info("sandbox receiver: webhooks moved from the account-id addresses to the signed ones", { webhooks: upgraded });
}

/** Under `next dev`, once the quickstart's routes are compiled (lifecycle/dev-warm-up.ts): the sandbox's demo account printed with a fresh key. */
export async function announceSandbox(db: Database): Promise<void> {
  const c = config();
  if (c.APP_ENV !== "sandbox") return;
  printDevConsole(c.APP_URL, await issueDevConsoleKey({ ctx: systemContext(db) }));
}

/** On a Node.js older than package.json's `engines`: one line saying so, then stop. */
function exitOnUnsupportedNode(): void {
  const message = unsupportedNodeMessage();
  if (!message) return;
  logger.error(message);
  process.exit(1);
}

async function openOrExplain(): Promise<Database> {
  try {
    return await database();
  } catch (error) {
    if (error instanceof DatabaseInUseError) {
      logger.error("the embedded database is in use by another process: stop it (another `npm run dev`, or a CLI command) and restart", {
        pid: error.holder.pid,
        folder: config().dataDir,
      });
    }
    if (
      error instanceof SchemaBehindError ||
      error instanceof PoolerModeError ||
      error instanceof PoolingSettingsError ||
      error instanceof ReplicaSettingsError
    ) {
      // This release's code would fail on the missing tables and columns, or on a pooler it was not told about, and replicas
      // without their primary are a setting that cannot mean what was meant: stop, and say what to do.
      logger.error(error.message);
      process.exit(1);
    }
    const unreachable = databaseUnavailable(error);
    const url = config().DATABASE_URL;
    if (unreachable && url) {
      // A server without its database answers nothing useful: one line saying why, then stop, so a
      // supervisor sees the failure instead of a process serving 503s (or a framework stack trace).
      logger.error(unreachableMessage(url, unreachable));
      process.exit(1);
    }
    throw error;
  }
}

async function isEmpty(db: Database): Promise<boolean> {
  const [row] = await db.rows<{ seeded: boolean }>(sql`select exists (select 1 from accounts) as seeded`);
  return !row.seeded;
}

function printDevConsole(appUrl: string, key: { key: string; expiresAt: Date } | undefined): void {
  const lines = key
    ? [
        `Sandbox ready on ${appUrl}`,
        `  demo account  ${demoEmail} / ${sandboxPassword}`,
        `  API key       ${key.key}`,
        `                (all permissions, valid until ${key.expiresAt.toISOString().slice(0, 10)}; a new one on every start)`,
        `  try           curl -H "Authorization: Bearer ${key.key}" ${appUrl}/api/v1/ping`,
      ]
    : [`Sandbox ready on ${appUrl}`, `  ${demoEmail} does not exist in this database: npm run db:seed adds it.`];
  process.stdout.write(`\n${lines.join("\n")}\n\n`);
}
