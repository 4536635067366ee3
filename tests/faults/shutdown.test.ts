import type { ChildProcess } from "node:child_process";
import { eq, inArray } from "drizzle-orm";
import { pgliteChildDatabase, postgresChildDatabase, type ChildDatabase } from "../support/child-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database } from "@/db";
import { apiLog, jobs, webhookDeliveries, webhooks } from "@/db/schema";
import { eventTypes } from "@/lib/domain/events";
import { createWebhook } from "@/lib/domain/webhooks/create-webhook";
import { ctxOf } from "../oauth/support";
import { accountWithKey } from "../support/fixtures";
import { activeListing } from "../support/listings";
import { startHttpServer, type LocalServer } from "../support/local-http-server";
import { startOtlpReceiver } from "../telemetry/otlp-receiver";
import { startApiServer } from "./support/api-server-process";
import { onPostgresRun } from "../support/engine";

/**
 * SIGTERM to a real server process under load (`api-server.ts`: the start-up path of
 * instrumentation.ts, the embedded job runner and its delivery lane, the route handlers behind a
 * `node:http` server). Clients pause and resume listings over keep-alive connections without a
 * break, each change an event delivered to a slow webhook receiver in this process, and another
 * account's long poll (`GET /events?wait=30`) waits; the signal comes while requests and deliveries
 * are in flight. The process must exit 0 having answered every request it accepted without a 5xx
 * (the long poll at once, with the empty page), with an API log row for each answer, and with no
 * delivery or job left claimed.
 *
 * Each variant has a database of its own, set up by this process before the server starts and read
 * by it after the server has exited: a throwaway PostgreSQL database (`npm run test:pg`), or a PGlite
 * folder (`npm test`), which the server must have closed for this process to open it again.
 */

const clients = 4;

let receiver: LocalServer;
let delivered = 0;
let child: ChildProcess | undefined;
let collector: Awaited<ReturnType<typeof startOtlpReceiver>>;

beforeAll(async () => {
  collector = await startOtlpReceiver();
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
  await collector?.close();
});

interface Answer {
  status: number;
  requestId: string | null;
}

async function underLoad(target: ChildDatabase): Promise<void> {
  await target.prepare();
  try {
    await signalledUnderLoad(target);
  } finally {
    await target.dispose();
  }
}

async function signalledUnderLoad(target: ChildDatabase): Promise<void> {
  const { account, key } = await accountWithKey();
  const listings = [];
  for (let i = 0; i < clients; i++) listings.push(await activeListing(key));
  const webhook = await createWebhook({
    ctx: await ctxOf(account.id),
    input: { url: "https://93.184.215.14/hooks", events: [eventTypes.paused, eventTypes.reactivated] },
  });
  const { connection: setup } = await database();
  await setup
    .update(webhooks)
    .set({ url: `${receiver.origin}/hooks` })
    .where(eq(webhooks.id, webhook.id));
  const longPoller = await accountWithKey({ permissions: ["listings:read"] });
  await target.letGo();

  const server = await startApiServer(target, {
    JOBS_RUNNER: "on",
    UNSAFE_ALLOW_LOCAL_URLS: "1",
    LOG_LEVEL: "info",
    SHUTDOWN_GRACE_MS: "20000",
    // Metrics are read every minute: within this test only the shutdown's flush sends them.
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin,
  });
  child = server.process;

  const answers: Answer[] = [];
  let signalled = false;
  const failuresBeforeSignal: unknown[] = [];
  // Each client pauses and resumes its own listing until the server stops taking connections.
  const load = listings.map(async (listing) => {
    for (let round = 0; ; round++) {
      const action = round % 2 === 0 ? "pause" : "resume";
      try {
        const response = await fetch(`${server.origin}/api/v1/listings/${listing.code}/${action}`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}` },
        });
        await response.arrayBuffer();
        answers.push({ status: response.status, requestId: response.headers.get("x-request-id") });
      } catch (error) {
        // Refused, or closed before any answer: not accepted. Before the signal nothing may fail.
        if (!signalled) failuresBeforeSignal.push(error);
        return;
      }
    }
  });

  // An account without events: its long poll waits until the signal ends it.
  const longPoll = fetch(`${server.origin}/api/v1/events?wait=30`, { headers: { authorization: `Bearer ${longPoller.key}` } }).then(
    async (response) => ({ status: response.status, requestId: response.headers.get("x-request-id"), body: await response.json() }),
  );

  await expect.poll(() => answers.length >= 40 && delivered >= 10, { timeout: 60_000, interval: 50 }).toBe(true);
  await expect.poll(() => server.waiting(longPoller.keyId), { timeout: 30_000, interval: 50 }).toBe(1);
  signalled = true;
  server.process.kill("SIGTERM");
  await Promise.all(load);
  const polled = await longPoll;
  const code = await server.exited;
  const stderr = server.stderr();

  expect(polled.body).toEqual({ data: [], meta: { next: null } });
  answers.push(polled);

  expect(failuresBeforeSignal).toEqual([]);
  expect(code, stderr).toBe(0);
  const logged = stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: string; message: string });
  expect(logged.map((line) => line.message)).toEqual(expect.arrayContaining(["shutting down", "shut down"]));
  expect(logged.filter((line) => line.level === "warn" || line.level === "error")).toEqual([]);

  expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
  const { connection: db } = await database();
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
  expect(collector.metrics().map((metric) => metric.name)).toContain("http.server.request.duration");
}

/** A server's start, its load and its drain, on a machine other test files keep busy meanwhile. */
const timeoutMs = 180_000;
const exitsCleanly = "answers every accepted request without a 5xx, logs each, gives back or finishes every claim, and exits 0";

describe.skipIf(!onPostgresRun)(`SIGTERM under load, on PostgreSQL${onPostgresRun ? "" : " (skipped: npm run test:pg runs it)"}`, () => {
  it(exitsCleanly, () => underLoad(postgresChildDatabase("test_shutdown")), timeoutMs);
});

describe.skipIf(onPostgresRun)(`SIGTERM under load, on PGlite${onPostgresRun ? " (skipped: npm test runs it)" : ""}`, () => {
  it(exitsCleanly, () => underLoad(pgliteChildDatabase("listings-shutdown")), timeoutMs);
});
