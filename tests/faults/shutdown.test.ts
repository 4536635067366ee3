import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, configureDatabase, database } from "@/db";
import { apiLog, jobs, webhookDeliveries, webhooks } from "@/db/schema";
import { createThrowawayDatabase, type ThrowawayDatabase } from "@/db/throwaway";
import { databaseSettings } from "@/lib/base/config";
import { eventTypes } from "@/lib/domain/events";
import { createWebhook } from "@/lib/domain/webhooks/create-webhook";
import { ctxOf } from "../oauth/support";
import { accountWithKey } from "../support/fixtures";
import { activeListing } from "../support/listings";
import { startHttpServer, type LocalServer } from "../support/local-http-server";

/**
 * SIGTERM to a real server process under load (`shutdown-server.ts`: the start-up path of
 * instrumentation.ts, the embedded job runner and its delivery lane, the route handlers behind a
 * `node:http` server). Clients pause and resume listings over keep-alive connections without a
 * break, each change an event delivered to a slow webhook receiver in this process; the signal
 * comes while requests and deliveries are in flight. The process must exit 0 having answered every
 * request it accepted without a 5xx, with an API log row for each answer, and with no delivery or
 * job left claimed. PostgreSQL only (this process reads the rows while the server holds the
 * database): `npm run test:pg` runs it.
 */

const adminUrl = process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const serverScript = path.join(import.meta.dirname, "shutdown-server.ts");
const onPostgresRun = Boolean(process.env.DATABASE_URL);
if (!onPostgresRun) console.info("Shutdown test skipped: it runs on PostgreSQL, with npm run test:pg");

const fileSettings = () => ({ ...databaseSettings(), template: process.env.PGLITE_TEMPLATE });
const clients = 4;

let throwaway: ThrowawayDatabase | undefined;
let receiver: LocalServer;
let delivered = 0;
let child: ChildProcess | undefined;

beforeAll(async () => {
  if (!onPostgresRun) return;
  throwaway = await createThrowawayDatabase(adminUrl, "test_shutdown");
  await closeDatabase();
  configureDatabase(() => ({ url: throwaway!.url, dataDir: "memory://" }));
  // Each delivery is answered after 100 ms: some are always in flight, others claimed ahead.
  receiver = await startHttpServer((_request, res) => {
    setTimeout(() => {
      delivered += 1;
      res.writeHead(204).end();
    }, 100);
  });
});

afterAll(async () => {
  child?.kill("SIGKILL");
  await receiver?.close();
  if (!onPostgresRun) return;
  await closeDatabase();
  configureDatabase(fileSettings);
  await throwaway?.drop();
});

interface Answer {
  status: number;
  requestId: string | null;
  afterSignal: boolean;
}

describe.runIf(onPostgresRun)("SIGTERM under load", () => {
  it("answers every accepted request without a 5xx, logs each, gives back or finishes every claim, and exits 0", async () => {
    const { account, key } = await accountWithKey();
    const listings = [];
    for (let i = 0; i < clients; i++) listings.push(await activeListing(key));
    const webhook = await createWebhook({
      ctx: await ctxOf(account.id),
      input: { url: "https://93.184.215.14/hooks", events: [eventTypes.paused, eventTypes.reactivated] },
    });
    const { connection: db } = await database();
    await db
      .update(webhooks)
      .set({ url: `${receiver.origin}/hooks` })
      .where(eq(webhooks.id, webhook.id));

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: throwaway!.url,
      NEXT_RUNTIME: "nodejs",
      JOBS_RUNNER: "on",
      UNSAFE_ALLOW_LOCAL_URLS: "1",
      LOG_LEVEL: "info",
      SHUTDOWN_GRACE_MS: "20000",
    };
    delete env.PGLITE_TEMPLATE;
    const server = spawn(process.execPath, ["--import", "tsx", serverScript], { env, stdio: ["ignore", "ignore", "pipe", "ipc"] });
    child = server;
    let stderr = "";
    server.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    const port = await new Promise<number>((resolve, reject) => {
      server.on("message", (message: { type: string; port: number }) => message.type === "ready" && resolve(message.port));
      server.once("exit", (code) => reject(new Error(`server exited before it was ready (${code}):\n${stderr}`)));
    });

    const answers: Answer[] = [];
    let signalled = false;
    const failuresBeforeSignal: unknown[] = [];
    // Each client pauses and resumes its own listing until the server stops taking connections.
    const load = listings.map(async (listing) => {
      for (let round = 0; ; round++) {
        const action = round % 2 === 0 ? "pause" : "resume";
        const afterSignal = signalled;
        try {
          const response = await fetch(`http://127.0.0.1:${port}/api/v1/listings/${listing.code}/${action}`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}` },
          });
          await response.arrayBuffer();
          answers.push({ status: response.status, requestId: response.headers.get("x-request-id"), afterSignal });
        } catch (error) {
          // Refused, or closed before any answer: not accepted. Before the signal nothing may fail.
          if (!signalled) failuresBeforeSignal.push(error);
          return;
        }
      }
    });

    await expect.poll(() => answers.length >= 40 && delivered >= 10, { timeout: 60_000, interval: 50 }).toBe(true);
    signalled = true;
    server.kill("SIGTERM");
    await Promise.all(load);
    const code = await exited;

    expect(failuresBeforeSignal).toEqual([]);
    expect(code, stderr).toBe(0);
    const logged = stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: string; message: string });
    expect(logged.map((line) => line.message)).toEqual(expect.arrayContaining(["shutting down", "shut down"]));
    expect(logged.filter((line) => line.level === "warn" || line.level === "error")).toEqual([]);

    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    const requestIds = answers.map((answer) => answer.requestId);
    expect(requestIds).not.toContain(null);
    const rows = await db
      .select({ requestId: apiLog.requestId })
      .from(apiLog)
      .where(inArray(apiLog.requestId, requestIds as string[]));
    expect(rows).toHaveLength(answers.length);

    const claimedDeliveries = await db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.status, "delivering"));
    expect(claimedDeliveries).toEqual([]);
    expect(await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.status, "running"))).toEqual([]);
  });
});
