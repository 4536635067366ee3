import { spawn, type ChildProcess } from "node:child_process";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { pgliteChildDatabase, postgresChildDatabase, type ChildDatabase } from "../support/child-database";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { database } from "@/db";
import { webhooks } from "@/db/schema";
import { eventId } from "@/lib/domain/events";
import { deliveryLeaseSeconds, maxDeliveryAttempts, retryDelaysSeconds } from "@/lib/domain/webhooks/delivery";
import { startHttpServer, type LocalServer, type ReceivedRequest } from "../support/local-http-server";
import { keyedAccount, record, webhookOf } from "@/tests/webhooks/support";
import { onPostgresRun } from "../support/engine";

/**
 * The server killed (SIGKILL) between two attempts and during an attempt, then restarted: every
 * delivery completes or fails after 7 attempts, none is lost.
 *
 * The "server" is `delivery-worker.ts`, a child process running the embedded runner's delivery lane
 * on the database, with a clock the test sets (it stands still between `clock` messages, so a lease
 * or a retry comes due only when the test says, and no test waits for real time to pass). The
 * receiver is a real HTTP server in this process. Every child is killed with SIGKILL, never stopped.
 *
 * Each variant has a database of its own, which the children open as the server does:
 * - PostgreSQL: a throwaway database on `PG_ADMIN_URL` (not the run's shared one, whose other test
 *   files' deliveries a child's lane would otherwise claim, and whose passes would claim ours). It
 *   runs under `npm run test:pg` (skipped, saying so, under `npm test`).
 * - PGlite: a folder (`PGLITE_DIR`), opened by one process at a time as the embedded default is; a
 *   child killed while it holds the folder leaves it mid-write, and the next one (or this process,
 *   setting up the next case) opens it again. Runs under `npm test`; `test:pg` runs the PostgreSQL one.
 *   While a child holds the folder this process cannot read it, so rows are always read through the
 *   child (the same on both variants).
 */

const workerScript = path.join(import.meta.dirname, "delivery-worker.ts");
const hour = 3_600_000;

type DeliveryRow = {
  id: string;
  eventSeq: number;
  webhookId: string;
  status: "pending" | "delivering" | "succeeded" | "failed";
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
};

/** One run of `delivery-worker.ts`: started with the clock at `now`, ready once its lane's first pass has ended. */
class Worker {
  private replies = new Map<number, (reply: Record<string, unknown>) => void>();
  private nextId = 0;
  private exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    child.on("message", (message: { type: string; id?: number } & Record<string, unknown>) => {
      if (message.type === "reply") this.replies.get(message.id!)?.(message);
    });
  }

  static async start(target: ChildDatabase, now: number): Promise<Worker> {
    await target.letGo();
    const env: NodeJS.ProcessEnv = { ...process.env, ...target.childEnv(), UNSAFE_ALLOW_LOCAL_URLS: "1", WORKER_NOW: String(now) };
    if (!target.childEnv().DATABASE_URL) {
      delete env.DATABASE_URL;
      delete env.DATABASE_URL_UNPOOLED;
    }
    delete env.PGLITE_TEMPLATE;
    const child = spawn(process.execPath, ["--import", "tsx", workerScript], {
      env,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "advanced",
    });
    const worker = new Worker(child);
    live.add(worker);
    await new Promise<void>((resolve, reject) => {
      child.on("message", (message: { type: string }) => message.type === "ready" && resolve());
      child.once("exit", (code, signal) => reject(new Error(`delivery worker exited before it was ready (${code ?? signal})`)));
    });
    return worker;
  }

  private ask(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.replies.set(id, (reply) => (reply.error ? reject(new Error(String(reply.error))) : resolve(reply)));
      this.child.send({ ...message, id });
    });
  }

  /** Moves the child's clock and wakes its lane as a commit does. */
  async clock(now: number): Promise<void> {
    await this.ask({ type: "clock", now });
  }

  async rows(webhookIds: string[]): Promise<DeliveryRow[]> {
    return (await this.ask({ type: "rows", webhookIds })).rows as DeliveryRow[];
  }

  async kill(): Promise<void> {
    this.child.kill("SIGKILL");
    await this.exited;
    live.delete(this);
  }
}

const live = new Set<Worker>();

/** The test's receiver: `answer` says what each request gets; `"hold"` leaves it open (until a kill ends it). */
type Answer = number | "hold";
async function receiver(answer: (request: ReceivedRequest) => Answer): Promise<LocalServer> {
  const held: ServerResponse[] = [];
  const server = await startHttpServer((request, res) => {
    const reply = answer(request);
    if (reply === "hold") held.push(res);
    else res.writeHead(reply).end();
  });
  servers.push(server);
  return server;
}
const servers: LocalServer[] = [];

/** Webhooks are created with a public https address, then pointed at the local receiver, one path each. */
async function hooksOf(server: LocalServer, count: number) {
  const account = await keyedAccount();
  const hooks = [];
  for (let i = 0; i < count; i++) {
    const webhook = await webhookOf(account.ctx);
    const { connection: db } = await database();
    await db
      .update(webhooks)
      .set({ url: `${server.origin}/hook/${webhook.id}` })
      .where(eq(webhooks.id, webhook.id));
    hooks.push(webhook);
  }
  return { account, hooks };
}

const waitFor = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 60_000, interval: 25 });

/** The rows once `settled` holds of them, asking the child again until it does (at most a minute). */
async function rowsAfter(worker: Worker, webhookIds: string[], settled: (rows: DeliveryRow[]) => boolean): Promise<DeliveryRow[]> {
  return waitFor(async () => {
    const rows = await worker.rows(webhookIds);
    if (!settled(rows)) throw new Error(`not yet: ${JSON.stringify(rows.map((row) => [row.status, row.attempts]))}`);
    return rows;
  });
}

/** Checks each request the receiver saw is the event, signed for the moment of its attempt. */
function expectSigned(requests: ReceivedRequest[], secret: string, eventId: string, times: number[]): void {
  const signer = new Webhook(secret);
  expect(requests.map((request) => request.headers["webhook-id"])).toEqual(times.map(() => eventId));
  expect(requests.map((request) => Number(request.headers["webhook-timestamp"]))).toEqual(times.map((at) => Math.floor(at / 1000)));
  for (const request of requests) {
    const at = new Date(Number(request.headers["webhook-timestamp"]) * 1000);
    expect(request.headers["webhook-signature"]).toBe(signer.sign(eventId, at, request.body));
  }
  expect(new Set(requests.map((request) => request.body)).size).toBe(1);
}

/** mulberry32: the batch's kill points and the receiver's answers from a fixed seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function killSuite(target: ChildDatabase): void {
  beforeAll(() => target.prepare(), 120_000);

  afterEach(async () => {
    await Promise.all([...live].map((worker) => worker.kill()));
    await Promise.all(servers.splice(0).map((server) => server.close()));
  }, 60_000);

  afterAll(() => target.dispose(), 60_000);

  // Events are recorded at the real time; the children's clock starts a minute later.
  const start = () => Date.now() + 60_000;

  it("killed during an attempt: after the lease the delivery is attempted again and succeeds; the receiver saw its webhook-id twice", async () => {
    let answer: Answer = "hold";
    const server = await receiver(() => answer);
    const { account, hooks } = await hooksOf(server, 1);
    const [webhook] = hooks;
    const event = (await record(account.id))!;
    const t0 = start();

    const first = await Worker.start(target, t0);
    await waitFor(() => expect(server.received).toHaveLength(1));
    // The request is in flight: claimed, the attempt counted, the lease running.
    expect(await first.rows([webhook.id])).toEqual([
      expect.objectContaining({ status: "delivering", attempts: 1, nextAttemptAt: new Date(t0 + deliveryLeaseSeconds * 1000) }),
    ]);
    answer = 204;
    await first.kill();

    // Restarted at once: the lease has not ended, so the start-up pass leaves the delivery alone.
    const second = await Worker.start(target, t0);
    expect(await second.rows([webhook.id])).toEqual([expect.objectContaining({ status: "delivering", attempts: 1 })]);
    expect(server.received).toHaveLength(1);

    const leaseEnd = t0 + deliveryLeaseSeconds * 1000;
    await second.clock(leaseEnd);
    const [row] = await rowsAfter(second, [webhook.id], ([one]) => one.status === "succeeded");
    expect(row).toMatchObject({ status: "succeeded", attempts: 2, nextAttemptAt: null, lastStatusCode: 204, lastError: null });
    expect(server.received).toHaveLength(2);
    expectSigned(server.received, webhook.secret, event.id, [t0, leaseEnd]);
  });

  it(`killed between two attempts: each retry comes on schedule after a restart, and ${maxDeliveryAttempts} failures fail it, never an 8th attempt`, async () => {
    const server = await receiver(() => 500);
    const { account, hooks } = await hooksOf(server, 1);
    const [webhook] = hooks;
    const event = (await record(account.id))!;
    const times = [start()];
    for (const delay of retryDelaysSeconds) times.push(times.at(-1)! + delay * 1000);
    // How each attempt's time is reached: a restart at that time (after a kill between attempts), a
    // restart a second early then the clock moved on, or the clock moved on in the same process.
    const reach: ("restart" | "restart-early" | "clock")[] = [
      "restart",
      "restart-early",
      "clock",
      "restart",
      "clock",
      "restart-early",
      "clock",
    ];

    let worker: Worker | undefined;
    for (let attempt = 1; attempt <= maxDeliveryAttempts; attempt++) {
      const at = times[attempt - 1];
      const how = reach[attempt - 1];
      if (how === "clock") await worker!.clock(at);
      else {
        await worker?.kill();
        if (how === "restart") worker = await Worker.start(target, at);
        else {
          worker = await Worker.start(target, at - 1000);
          // The start-up pass has ended: a second early, the retry is not due.
          expect(await worker.rows([webhook.id])).toEqual([expect.objectContaining({ status: "pending", attempts: attempt - 1 })]);
          expect(server.received).toHaveLength(attempt - 1);
          await worker.clock(at);
        }
      }
      const [row] = await rowsAfter(worker!, [webhook.id], ([one]) => one.attempts === attempt && one.status !== "delivering");
      if (attempt < maxDeliveryAttempts) {
        expect(row).toMatchObject({ status: "pending", attempts: attempt, nextAttemptAt: new Date(times[attempt]), lastStatusCode: 500 });
      } else {
        expect(row).toMatchObject({ status: "failed", attempts: maxDeliveryAttempts, nextAttemptAt: null, lastStatusCode: 500 });
      }
      expect(server.received).toHaveLength(attempt);
    }

    // Killed once more and restarted a day later: nothing is due, no 8th attempt.
    await worker!.kill();
    const later = await Worker.start(target, times.at(-1)! + 24 * hour);
    expect(await later.rows([webhook.id])).toEqual([
      expect.objectContaining({ status: "failed", attempts: maxDeliveryAttempts, nextAttemptAt: null }),
    ]);
    expect(server.received).toHaveLength(maxDeliveryAttempts);
    expectSigned(server.received, webhook.secret, event.id, times);
  });

  it(`killed during the ${maxDeliveryAttempts}th attempt: failed (attempt_interrupted) once its lease ends, never an 8th attempt`, async () => {
    // 500 to attempts 1 to 6, the 7th held open until the kill.
    const server = await receiver(() => (server.received.length < maxDeliveryAttempts ? 500 : "hold"));
    const { account, hooks } = await hooksOf(server, 1);
    const [webhook] = hooks;
    const event = (await record(account.id))!;
    const times = [start()];
    for (const delay of retryDelaysSeconds) times.push(times.at(-1)! + delay * 1000);

    const worker = await Worker.start(target, times[0]);
    for (let attempt = 1; attempt < maxDeliveryAttempts; attempt++) {
      if (attempt > 1) await worker.clock(times[attempt - 1]);
      await rowsAfter(worker, [webhook.id], ([one]) => one.attempts === attempt && one.status === "pending");
    }
    await worker.clock(times[maxDeliveryAttempts - 1]);
    await waitFor(() => expect(server.received).toHaveLength(maxDeliveryAttempts));
    const leaseEnd = times[maxDeliveryAttempts - 1] + deliveryLeaseSeconds * 1000;
    expect(await worker.rows([webhook.id])).toEqual([
      expect.objectContaining({ status: "delivering", attempts: maxDeliveryAttempts, nextAttemptAt: new Date(leaseEnd) }),
    ]);
    await worker.kill();

    // Restarted when the lease has ended: the start-up pass fails it rather than claiming an 8th attempt.
    const restarted = await Worker.start(target, leaseEnd);
    expect(await restarted.rows([webhook.id])).toEqual([
      expect.objectContaining({ status: "failed", attempts: maxDeliveryAttempts, nextAttemptAt: null, lastError: "attempt_interrupted" }),
    ]);
    expect(server.received).toHaveLength(maxDeliveryAttempts);
    expectSigned(server.received, webhook.secret, event.id, times);
  });

  it("50 events to 2 webhooks, the server killed at seeded points while attempts fail, hang and succeed: every delivery ends succeeded, none lost", async () => {
    const random = seeded(20_261_125);
    let healthy = false;
    let heldThisRun = 0;
    // While unhealthy: some requests held open (at most 3 a run, below the per-webhook cap of 4, so a
    // run always gets through its due deliveries), some answered 500, the others 204.
    const server = await receiver(() => {
      if (healthy) return 204;
      const roll = random();
      if (roll < 0.1 && heldThisRun < 3) {
        heldThisRun++;
        return "hold";
      }
      return roll < 0.35 ? 500 : 204;
    });
    const { account, hooks } = await hooksOf(server, 2);
    const ids = hooks.map((hook) => hook.id);
    const events = [];
    for (let i = 0; i < 50; i++) events.push((await record(account.id))!);

    // The clock stands still within a run, so each run attempts a delivery at most once; moving 7 hours
    // between runs makes every retry and ended lease due. 3 killed runs and a healthy one: at most 4
    // attempts each, short of the 7th, so every delivery must end succeeded.
    let now = start();
    const kills = seeded(7);
    for (let run = 0; run < 3; run++) {
      heldThisRun = 0;
      const before = server.received.length;
      // 0 to 20 requests into the run (0: right after the start-up pass has claimed): at least 60 of
      // the 100 deliveries are still due in each run, so the point is always reached.
      const killAfter = Math.floor(kills() * 21);
      const worker = await Worker.start(target, now);
      await waitFor(() => expect(server.received.length - before).toBeGreaterThanOrEqual(killAfter));
      await worker.kill();
      now += 7 * hour;
    }

    healthy = true;
    const last = await Worker.start(target, now);
    const rows = await rowsAfter(last, ids, (all) => all.length === 100 && all.every((row) => row.status === "succeeded"));

    const seen = new Map<string, number>();
    for (const request of server.received) {
      const key = `${request.url.replace("/hook/", "")} ${request.headers["webhook-id"]}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    for (const hook of hooks) for (const event of events) expect(seen.get(`${hook.id} ${event.id}`) ?? 0).toBeGreaterThanOrEqual(1);
    expect(seen.size).toBe(100);
    // Every attempt counted: a killed one may never have reached the receiver, but every request the
    // receiver saw was a counted attempt; at most one a run.
    for (const row of rows) {
      const received = seen.get(`${row.webhookId} ${eventId(row.eventSeq)}`) ?? 0;
      expect(row.attempts).toBeGreaterThanOrEqual(received);
      expect(row.attempts).toBeLessThanOrEqual(4);
    }
  });
}

describe.skipIf(!onPostgresRun)(
  `webhook deliveries through SIGKILL and restart, on PostgreSQL${onPostgresRun ? "" : " (skipped: npm run test:pg runs it; this run is PGlite's)"}`,
  { timeout: 180_000 },
  () => killSuite(postgresChildDatabase("test_kill")),
);

describe.skipIf(onPostgresRun)(
  `webhook deliveries through SIGKILL and restart, on PGlite${onPostgresRun ? " (skipped: npm test runs it; this run is PostgreSQL's)" : ""}`,
  { timeout: 240_000 },
  () => killSuite(pgliteChildDatabase("listings-kill")),
);
