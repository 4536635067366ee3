/**
 * The webhook delivery benchmark of `npm run bench` (alone: `BENCH_ONLY=webhooks`). One account with
 * a key and 3 webhooks (`listing.published`) to 3 local receivers (`bench/webhook-receivers.ts`); the
 * events are real product mutations: `moderateListing` approving pending listings, each in its own
 * transaction as `moderation:approve` does, so `recordEvent` and `fanOutEvent` write the event, its 3
 * deliveries and the NOTIFY. The embedded runner's delivery lane delivers them from a process of its
 * own (`bench/webhook-sender.ts lane`). Then a bare sender in the same kind of process signs and
 * POSTs the same 3 000 bodies to the same receivers with the same concurrency, and the ceiling lane
 * (`bench/webhook-ceiling.ts`) delivers another backlog as durably with the least database work.
 * docs/benchmarks.md ("Webhook delivery") explains the runs and the figures.
 */
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { inArray } from "drizzle-orm";
import type { Sql } from "postgres";
import { events } from "@/db/schema";
import { createAccount } from "@/lib/domain/accounts/create-account";
import { createKey } from "@/lib/domain/keys/create-key";
import { moderateListing } from "@/lib/domain/listings/moderate";
import { eventTypes } from "@/lib/domain/events";
import { eventId } from "@/lib/domain/event-types";
import { createWebhookFor } from "@/lib/domain/webhooks/create-webhook";
import { defaultMaxInFlight, deliveryBody, maxInFlightPerWebhook } from "@/lib/domain/webhooks/delivery";
import { resetConfig } from "@/lib/base/config";
import { operatorContext, type OperatorActor, type ServiceContext } from "@/lib/base/context";
import { positiveEnv } from "./lifecycle";
import { currentRuntime } from "./runtimes";
import { processCpuUs, type Figure } from "./load";
import type { Check, Measurement } from "./report";
import { listingTemplate, seedListings } from "./seed";
import type { Receipt, ReceiverMessage } from "./webhook-receivers";
import type { BareRequest, SenderCommand, SenderMessage } from "./webhook-sender";

export const webhookSettings = {
  events: positiveEnv("BENCH_WEBHOOK_EVENTS", 1000),
  warmupEvents: 100,
  /** Transactions committing at once in the throughput run (one account's events serialize on its advisory lock anyway). */
  producers: positiveEnv("BENCH_WEBHOOK_PRODUCERS", 4),
  /** Events per second of the latency run; unset: half of what the lane delivered in the throughput run. */
  rate: process.env.BENCH_WEBHOOK_RATE ? positiveEnv("BENCH_WEBHOOK_RATE", 1) : undefined,
  receivers: 3,
  /**
   * Rounds of the backlog run and of the bare sender, taking turns; the fastest of each counts (a
   * run of 3 000 deliveries lasts under 2 s, and one short run of either moved the ratio by a tenth).
   */
  rounds: positiveEnv("BENCH_WEBHOOK_ROUNDS", 3),
  timeoutSeconds: positiveEnv("BENCH_WEBHOOK_TIMEOUT", 180),
  /** A folder: the lane's process writes a V8 CPU profile there (`--cpu-prof`). */
  cpuProfDir: process.env.BENCH_WEBHOOK_CPU_PROF,
};

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// The bench's commits and the receivers' receipts compare as wall-clock times of one machine.
const firstListing = 50_000_000;

type Log = (line: string) => void;

interface Child {
  process: ChildProcess;
  next<T>(type: string): Promise<T>;
  send(message: unknown): void;
  stop(): Promise<void>;
}

function startChild(script: string, args: string[], env: NodeJS.ProcessEnv, execArgv: string[] = []): Child {
  const child = fork(path.resolve("bench", script), args, {
    execArgv: ["--import", "tsx", ...execArgv],
    env,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        child.off("message", onMessage);
        child.off("exit", onExit);
        resolve(message as T);
      };
      const onExit = (code: number | null) => reject(new Error(`${script} ${args.join(" ")} exited (${code}) before "${type}"`));
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  return {
    process: child,
    next,
    send: (message) => child.send(message as never),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.disconnect();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Starts and stops a lane's process (`webhook-sender.ts lane` or `ceiling`); `start` answers when it started. */
function controls(child: Child) {
  return {
    start: async () => {
      child.send({ type: "start" } satisfies SenderCommand);
      return (await child.next<Extract<SenderMessage, { type: "started" }>>("started")).at;
    },
    stop: async () => {
      child.send({ type: "stop" } satisfies SenderCommand);
      await child.next("stopped");
    },
  };
}

/** CPU time so far of each PostgreSQL session on the bench's database (other databases' sessions left out), in µs by pid. */
async function sessionsCpuUs(pg: Sql): Promise<Map<number, number>> {
  const sessions = await pg<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database()`;
  const cpu = new Map<number, number>();
  for (const { pid } of sessions) {
    try {
      cpu.set(pid, processCpuUs(pid));
    } catch {
      // The session has just ended.
    }
  }
  return cpu;
}

/**
 * CPU of the sender's process, of the receivers' and of PostgreSQL's sessions on the bench's database
 * while `work` runs, in µs per delivery.
 */
async function cpuPer<T>(
  pg: Sql,
  pids: { sender: number; receivers: number },
  deliveries: number,
  work: () => Promise<T>,
): Promise<{ result: T; senderUs: number; receiversUs: number; postgresUs: number }> {
  const [sender, receivers, before] = [processCpuUs(pids.sender), processCpuUs(pids.receivers), await sessionsCpuUs(pg)];
  const result = await work();
  const after = await sessionsCpuUs(pg);
  const database = [...after].reduce((sum, [session, us]) => sum + us - (before.get(session) ?? 0), 0);
  const per = (us: number) => Math.round(us / deliveries);
  return {
    result,
    senderUs: per(processCpuUs(pids.sender) - sender),
    receiversUs: per(processCpuUs(pids.receivers) - receivers),
    postgresUs: per(database),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

interface Run {
  /** Deliveries received (one per event and receiver; a repeat counted once). */
  delivered: number;
  perSecond: number;
  seconds: number;
  latencies: number[];
  duplicates: number;
  unsigned: number;
  missing: number;
}

/** Matches receipts with their start (a commit, or the bare sender's start of the request). */
function summarise(expected: Map<string, number>, receipts: Receipt[], from: number): Run {
  const seen = new Set<string>();
  const latencies: number[] = [];
  let last = from;
  let duplicates = 0;
  let unsigned = 0;
  for (const r of receipts) {
    if (r.unsigned) unsigned++;
    const key = `${r.receiver} ${r.id}`;
    const start = expected.get(key);
    if (start === undefined) continue;
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    seen.add(key);
    latencies.push(r.at - start);
    last = Math.max(last, r.at);
  }
  latencies.sort((a, b) => a - b);
  const seconds = (last - from) / 1000;
  return {
    delivered: seen.size,
    perSecond: seconds > 0 ? seen.size / seconds : 0,
    seconds,
    latencies,
    duplicates,
    unsigned,
    missing: expected.size - seen.size,
  };
}

function figureOf(run: Run): Figure {
  return {
    requestsPerSecond: round(run.perSecond),
    p50Ms: round(percentile(run.latencies, 50)),
    p99Ms: round(percentile(run.latencies, 99)),
    meanMs: round(run.latencies.reduce((sum, l) => sum + l, 0) / (run.latencies.length || 1)),
    requests: run.delivered,
    seconds: round(run.seconds, 2),
    statuses: { "204": run.delivered },
    non2xx: 0,
    // A delivery that never arrived, a repeat or an unsigned request: the figure does not measure what it claims.
    errors: run.missing + run.duplicates + run.unsigned,
  };
}

export async function runWebhookBench(input: {
  ctx: ServiceContext<OperatorActor>;
  pg: Sql;
  databaseUrl: string;
  log: Log;
  cleanup: (step: () => Promise<void>) => void;
  loadAverage: () => number;
}): Promise<{ measurements: Measurement[]; checks: Check[]; details: Record<string, unknown> }> {
  const { ctx, pg, log, cleanup } = input;
  const settings = webhookSettings;
  // Receivers on 127.0.0.1 over http:// need the local-testing switch, in this process (webhook
  // creation checks the address) and in the lane's (every attempt checks it again). The secrets are
  // sealed with a key derived from AUTH_SECRET: both processes must have the same one.
  process.env.UNSAFE_ALLOW_LOCAL_URLS = "1";
  process.env.AUTH_SECRET ??= randomBytes(32).toString("base64url");
  resetConfig();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: input.databaseUrl, LOG_LEVEL: "error", APP_ENV: "sandbox" };

  const receivers = startChild("webhook-receivers.ts", [], { ...childEnv, RECEIVERS: String(settings.receivers) });
  cleanup(receivers.stop);
  const { urls } = await receivers.next<Extract<ReceiverMessage, { type: "ready" }>>("ready");

  const account = await createAccount({
    ctx,
    input: { email: "bench-webhooks@bench.example.com", password: "bench-password", name: "bench-webhooks" },
  });
  // Events reach webhooks only while the account has a key.
  await createKey({ ctx, input: { accountId: account.id, name: "bench webhooks", permissions: ["listings:read"], days: 30 } });
  const hooks: Awaited<ReturnType<typeof createWebhookFor>>[] = [];
  for (const url of urls)
    hooks.push(await createWebhookFor({ ctx, input: { account_id: account.id, url, events: [eventTypes.published] } }));
  const receiverOf = new Map(hooks.map((hook, i) => [hook.id, i]));

  // Warm-ups of the lane and of the ceiling lane; the throughput and latency runs; each round's lane and ceiling backlogs.
  const total = 2 * settings.warmupEvents + (2 + 2 * settings.rounds) * settings.events;
  log(`webhooks: seeding ${total} pending listings of one account; receivers on ${urls.join(", ")}`);
  await seedListings(pg, { template: await listingTemplate(ctx), owners: [account.id], first: firstListing, count: total });
  const codes = (
    await pg<{ code: string }[]>`select code from listings where account_id = ${account.id} and status = 'pending' order by id`
  ).map((r) => r.code);
  const warmupCodes = codes.slice(0, settings.warmupEvents);
  const burstCodes = codes.slice(settings.warmupEvents, settings.warmupEvents + settings.events);
  const pacedCodes = codes.slice(settings.warmupEvents + settings.events, settings.warmupEvents + 2 * settings.events);
  const backlogs = (first: number) =>
    Array.from({ length: settings.rounds }, (_, r) =>
      codes.slice(settings.warmupEvents + (first + r) * settings.events, settings.warmupEvents + (first + 1 + r) * settings.events),
    );
  const drainCodes = backlogs(2);
  const ceilingCodes = backlogs(2 + settings.rounds);
  const ceilingWarmupCodes = codes.slice(-settings.warmupEvents);

  // Each approval is its own request: a fresh context (its own `now`) and transaction, as the CLI's is.
  const approve = async (code: string, commits: Map<string, number>) => {
    await moderateListing({ ctx: operatorContext(ctx.database), input: { code, decision: { decision: "approve" } } });
    commits.set(code, now());
  };
  const asFastAsPossible = async (list: string[], commits: Map<string, number>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: settings.producers }, async () => {
        while (next < list.length) await approve(list[next++], commits);
      }),
    );
  };
  const paced = async (list: string[], commits: Map<string, number>, perSecond: number) => {
    const start = now();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < list.length; i++) {
      const wait = start + (i * 1000) / perSecond - now();
      if (wait > 0) await sleep(wait);
      pending.push(approve(list[i], commits));
    }
    await Promise.all(pending);
  };
  const waitForReceipts = async (expected: number, what: string) => {
    const deadline = Date.now() + settings.timeoutSeconds * 1000;
    for (;;) {
      receivers.send({ type: "count" });
      const { received } = await receivers.next<Extract<ReceiverMessage, { type: "count" }>>("count");
      if (received >= expected) return;
      if (Date.now() > deadline) {
        log(`webhooks: ${what}: ${received} of ${expected} deliveries received after ${settings.timeoutSeconds} s`);
        return;
      }
      await sleep(100);
    }
  };
  const takeReceipts = async () => {
    receivers.send({ type: "take" });
    return (await receivers.next<Extract<ReceiverMessage, { type: "taken" }>>("taken")).receipts;
  };
  /** Each delivery's key (receiver and event id) with the commit time of its event. */
  const deliveriesOf = async (commits: Map<string, number>) => {
    const rows = await pg<{ seq: number; code: string; webhook_id: string }[]>`
      select e.seq::int as seq, e.data->>'code' as code, d.webhook_id
      from events e join webhook_deliveries d on d.event_seq = e.seq
      where e.account_id = ${account.id} and e.data->>'code' = any(${[...commits.keys()]})`;
    return new Map(rows.map((r) => [`${receiverOf.get(r.webhook_id)} ${eventId(r.seq)}`, commits.get(r.code)!]));
  };

  // The product: the lane in its own process, listening before the first commit.
  const lane = startChild(
    "webhook-sender.ts",
    ["lane"],
    childEnv,
    settings.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(settings.cpuProfDir)}`] : [],
  );
  cleanup(lane.stop);
  await lane.next("ready");
  const laneControl = controls(lane);
  const { start: startLane, stop: stopLane } = laneControl;
  await startLane();
  log(
    `webhooks: lane started (${defaultMaxInFlight} in flight per process, ${maxInFlightPerWebhook} per webhook); warm-up of ${settings.warmupEvents} events`,
  );
  await asFastAsPossible(warmupCodes, new Map());
  await waitForReceipts(settings.warmupEvents * hooks.length, "warm-up");
  await takeReceipts();

  log(`webhooks: throughput run, ${settings.events} events committed as fast as ${settings.producers} producers can`);
  const burstLoad = input.loadAverage();
  const burstCommits = new Map<string, number>();
  const burstStart = now();
  let committedIn = 0;
  const burstCpu = await cpuPer(
    pg,
    { sender: lane.process.pid!, receivers: receivers.process.pid! },
    settings.events * hooks.length,
    async () => {
      await asFastAsPossible(burstCodes, burstCommits);
      committedIn = (now() - burstStart) / 1000;
      await waitForReceipts(settings.events * hooks.length, "throughput run");
    },
  );
  const burstExpected = await deliveriesOf(burstCommits);
  const firstCommit = Math.min(...burstCommits.values());
  const burst = summarise(burstExpected, await takeReceipts(), firstCommit);
  log(
    `webhooks: committed ${settings.events} events in ${committedIn.toFixed(2)} s (${Math.round(settings.events / committedIn)}/s); ${burst.delivered} deliveries in ${burst.seconds.toFixed(2)} s`,
  );

  const rate = settings.rate ?? Math.max(1, Math.round(burst.perSecond / hooks.length / 2));
  log(`webhooks: latency run, ${settings.events} events at ${rate}/s`);
  const pacedLoad = input.loadAverage();
  const pacedCommits = new Map<string, number>();
  await paced(pacedCodes, pacedCommits, rate);
  await waitForReceipts(settings.events * hooks.length, "latency run");
  const pacedRun = summarise(await deliveriesOf(pacedCommits), await takeReceipts(), Math.min(...pacedCommits.values()));

  // The bare sender: the same bodies and secrets as the throughput run's, in the order the events committed.
  const eventRows = await ctx.database.connection
    .select()
    .from(events)
    .where(
      inArray(
        events.seq,
        (await pg<{ seq: number }[]>`select seq::int as seq from events where account_id = ${account.id}`).map((r) => r.seq),
      ),
    );
  const byCode = new Map(eventRows.map((row) => [String(row.data.code), row]));
  const requestsFor = (list: string[], order: Map<string, number>) =>
    list
      .filter((code) => byCode.has(code))
      .sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
      .flatMap((code) =>
        hooks.map((hook, receiver): BareRequest => ({
          receiver,
          url: urls[receiver],
          secret: hook.secret,
          id: eventId(byCode.get(code)!.seq),
          body: deliveryBody(byCode.get(code)!, null),
        })),
      );
  const startBare = async (keepAlive: boolean) => {
    const sender = startChild("webhook-sender.ts", ["bare"], childEnv);
    cleanup(sender.stop);
    await sender.next("ready");
    const sendAll = async (requests: BareRequest[]) => {
      sender.send({ type: "send", requests, keepAlive } satisfies SenderCommand);
      return sender.next<Extract<SenderMessage, { type: "sent" }>>("sent");
    };
    await sendAll(requestsFor(warmupCodes, new Map()));
    await waitForReceipts(warmupCodes.length * hooks.length, "bare warm-up");
    await takeReceipts();
    /** One run of the throughput run's deliveries (the receivers count each round's receipts afresh). */
    const round = async () => {
      const loadAverage = input.loadAverage();
      const {
        result: sent,
        senderUs,
        receiversUs,
        postgresUs,
      } = await cpuPer(
        pg,
        { sender: sender.process.pid!, receivers: receivers.process.pid! },
        burstCodes.length * hooks.length,
        async () => {
          const answer = await sendAll(requestsFor(burstCodes, burstCommits));
          await waitForReceipts(burstCodes.length * hooks.length, "bare run");
          return answer;
        },
      );
      const expected = new Map(sent.starts.map(([receiver, id, at]) => [`${receiver} ${id}`, at]));
      const run = summarise(expected, await takeReceipts(), sent.startedAt);
      return { run, loadAverage, statuses: sent.statuses, errors: sent.errors, senderUs, receiversUs, postgresUs };
    };
    return { round, stop: sender.stop };
  };
  const fastest = <T extends { run: Run }>(rounds: T[]) => rounds.reduce((best, r) => (r.run.perSecond > best.run.perSecond ? r : best));

  // The ceiling lane in a process of its own, warmed up on events of its own as the lane was.
  await stopLane();
  const ceilingLane = startChild("webhook-sender.ts", ["ceiling"], childEnv);
  cleanup(ceilingLane.stop);
  await ceilingLane.next("ready");
  const ceiling = controls(ceilingLane);
  await asFastAsPossible(ceilingWarmupCodes, new Map());
  await ceiling.start();
  await waitForReceipts(settings.warmupEvents * hooks.length, "ceiling lane's warm-up");
  await ceiling.stop();
  await takeReceipts();

  /** One backlog: its events committed while `sender` is stopped, then drained by the warm process (from its start to the last receipt). */
  const backlogRound = async (sender: Child, control: ReturnType<typeof controls>, roundCodes: string[], what: string) => {
    const commits = new Map<string, number>();
    await asFastAsPossible(roundCodes, commits);
    const loadAverage = input.loadAverage();
    let start = 0;
    const cpu = await cpuPer(
      pg,
      { sender: sender.process.pid!, receivers: receivers.process.pid! },
      settings.events * hooks.length,
      async () => {
        start = await control.start();
        await waitForReceipts(settings.events * hooks.length, what);
      },
    );
    const expected = new Map([...(await deliveriesOf(commits)).keys()].map((key) => [key, start]));
    const run = summarise(expected, await takeReceipts(), start);
    await control.stop();
    return { run, loadAverage, cpu };
  };

  // The lane, the ceiling lane and the bare sender in turns: each lane drains a backlog committed
  // while it is stopped, as the bare sender starts with every body.
  const bareSender = await startBare(false);
  const drainRounds: Awaited<ReturnType<typeof backlogRound>>[] = [];
  const ceilingRounds: Awaited<ReturnType<typeof backlogRound>>[] = [];
  const bareRounds: Awaited<ReturnType<typeof bareSender.round>>[] = [];
  for (const [r, roundCodes] of drainCodes.entries()) {
    log(
      `webhooks: backlog run ${r + 1} of ${settings.rounds}, ${settings.events} events committed with the lane stopped, then drained; the same for the ceiling lane; then the bare sender's`,
    );
    drainRounds.push(await backlogRound(lane, laneControl, roundCodes, "backlog run"));
    ceilingRounds.push(await backlogRound(ceilingLane, ceiling, ceilingCodes[r], "ceiling lane's backlog run"));
    bareRounds.push(await bareSender.round());
    const perSecond = (rounds: { run: Run }[]) => Math.round(rounds.at(-1)!.run.perSecond);
    log(
      `webhooks: round ${r + 1}: lane ${perSecond(drainRounds)} deliveries/s, ceiling lane ${perSecond(ceilingRounds)}, bare sender ${perSecond(bareRounds)}`,
    );
  }
  await bareSender.stop();
  await ceilingLane.stop();
  await lane.stop();
  const { run: drain, loadAverage: drainLoad, cpu: drainCpu } = fastest(drainRounds);
  const { run: ceilingDrain, loadAverage: ceilingLoad, cpu: ceilingCpu } = fastest(ceilingRounds);
  // The fastest round's figure, with every round's failures: a failed delivery in a slower round still makes the run invalid.
  const bare = {
    ...fastest(bareRounds),
    errors: bareRounds.reduce((sum, r) => sum + r.errors, 0),
    statuses: Object.fromEntries(bareRounds.flatMap((r) => Object.entries(r.statuses)).filter(([status]) => status !== "204")) as Record<
      string,
      number
    >,
  };
  bare.statuses["204"] = fastest(bareRounds).statuses["204"] ?? 0;
  const [outcomes] = await pg<{ succeeded: number; other: number; retried: number }[]>`
    select count(*) filter (where status = 'succeeded')::int as succeeded, count(*) filter (where status <> 'succeeded')::int as other,
           count(*) filter (where attempts > 1)::int as retried
    from webhook_deliveries d join webhooks w on w.id = d.webhook_id where w.account_id = ${account.id}`;
  log(`webhooks: deliveries ${outcomes.succeeded} succeeded, ${outcomes.other} not, ${outcomes.retried} attempted more than once`);

  log("webhooks: bare sender, keep-alive connections (for information)");
  const keepAliveSender = await startBare(true);
  const bareKeepAlive = await keepAliveSender.round();
  await keepAliveSender.stop();

  const measurement = (name: string, run: Run, loadAverage: number, extra: Partial<Figure> = {}): Measurement => ({
    name: `${currentRuntime().name}  webhooks: ${name}`,
    figure: { ...figureOf(run), ...extra },
    expected: [204],
    loadAverage,
  });
  const bareFigure = (b: typeof bare) => ({ statuses: b.statuses, errors: figureOf(b.run).errors + b.errors, serverCpuUs: b.senderUs });
  const measurements = [
    measurement(`lane, ${settings.events} events as fast as possible (commit → receipt)`, burst, burstLoad, {
      serverCpuUs: burstCpu.senderUs,
    }),
    measurement(`lane, ${settings.events} events at ${rate}/s (commit → receipt)`, pacedRun, pacedLoad),
    measurement(`lane draining ${settings.events} committed events (lane start → receipt)`, drain, drainLoad, {
      serverCpuUs: drainCpu.senderUs,
    }),
    measurement(`ceiling lane draining ${settings.events} committed events (start → receipt)`, ceilingDrain, ceilingLoad, {
      serverCpuUs: ceilingCpu.senderUs,
    }),
    measurement("bare sender, new connection each (start → receipt)", bare.run, bare.loadAverage, bareFigure(bare)),
    measurement("bare sender, keep-alive (start → receipt)", bareKeepAlive.run, bareKeepAlive.loadAverage, bareFigure(bareKeepAlive)),
  ];
  const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);
  const cpuOf = (cpu: { senderUs: number; receiversUs: number; postgresUs: number }) => cpu.senderUs + cpu.receiversUs + cpu.postgresUs;
  const deliveries = `${settings.events} listing.published events × ${hooks.length} receivers`;
  const checks: Check[] = [
    {
      // Like for like: both sides start with the same 3 000 deliveries ready to go. In the throughput
      // run below, the producers' transactions share the 2 cores and bound what the lane can be given.
      name: "webhooks: lane ÷ bare sender (deliveries/s)",
      value: ratio(drain.perSecond, bare.run.perSecond),
      unit: "",
      kind: "min",
      target: 0.7,
      how:
        `deliveries/s of the embedded runner's delivery lane (${deliveries}, all committed before the lane starts; lane start → last receipt) ÷ ` +
        `deliveries/s of a bare node:http sender POSTing the same signed bodies with the same concurrency (${defaultMaxInFlight} in all, ${maxInFlightPerWebhook} per receiver) and a new connection per request, as safePost makes (first request → last receipt); ` +
        `the fastest of ${settings.rounds} rounds each, the two taking turns`,
    },
    {
      name: "webhooks: commit → receipt p50",
      value: round(percentile(pacedRun.latencies, 50)),
      unit: " ms",
      kind: "max",
      target: 100,
      how: `from each event's commit (its transaction resolved in the bench) to the receiver having the body, each of the ${settings.events * hooks.length} deliveries of the latency run (${rate} events/s: half what the lane delivered in the throughput run unless BENCH_WEBHOOK_RATE is set)`,
    },
    {
      name: "webhooks: commit → receipt p99",
      value: round(percentile(pacedRun.latencies, 99)),
      unit: " ms",
      kind: "max",
      target: 1000,
      how: `from each event's commit (its transaction resolved in the bench) to the receiver having the body, each of the ${settings.events * hooks.length} deliveries of the latency run (${rate} events/s: half what the lane delivered in the throughput run unless BENCH_WEBHOOK_RATE is set)`,
    },
    ...([50, 99] as const).map((p): Check => ({
      name: `webhooks: throughput run's commit → receipt p${p}`,
      value: round(percentile(burst.latencies, p)),
      unit: " ms",
      kind: "info",
      how: "the same latency in the throughput run, where the events commit faster than the lane delivers them: mostly time queued",
    })),
    {
      name: "webhooks: lane with events committing meanwhile ÷ bare sender",
      value: ratio(burst.perSecond, bare.run.perSecond),
      unit: "",
      kind: "info",
      how: `deliveries/s of the lane while ${settings.producers} producers commit the ${settings.events} events as fast as they can (first commit → last receipt) ÷ the bare sender's: bounded by the producers on a small machine`,
    },
    {
      name: "webhooks: PostgreSQL CPU per delivery, lane draining / bare sender",
      value: drainCpu.postgresUs,
      unit: ` / ${bare.postgresUs} µs`,
      kind: "info",
      how: "CPU time of the PostgreSQL sessions on the bench's database during the run (from /proc; its background processes left out) ÷ deliveries; the sender's own CPU per delivery is the CPU column of its line",
    },
    {
      name: "webhooks: by CPU, lane draining ÷ bare sender",
      value: ratio(cpuOf(bare), cpuOf(drainCpu)),
      unit: "",
      kind: "info",
      how: "CPU per delivery of the bare sender, the receivers and PostgreSQL ÷ that of the lane's process, the receivers and PostgreSQL in the backlog run: the ratio when the machine's cores are the limit",
    },
    {
      name: "webhooks: by CPU, ceiling lane ÷ bare sender",
      value: ratio(cpuOf(bare), cpuOf(ceilingCpu)),
      unit: "",
      kind: "info",
      how: "as above for the ceiling lane: the most a sender doing this durable work can reach of the bare sender when the cores are the limit",
    },
    {
      name: "webhooks: ceiling lane ÷ bare sender (deliveries/s)",
      value: ratio(ceilingDrain.perSecond, bare.run.perSecond),
      unit: "",
      kind: "info",
      how: `deliveries/s of the ceiling lane (bench/webhook-ceiling.ts: each delivery claimed and committed before its request and its outcome committed after, in plain postgres.js, with the bare sender's POST; its own backlog of ${deliveries}) ÷ the bare sender's: what making each delivery durable costs on this machine, whatever the code; the fastest of ${settings.rounds} rounds`,
    },
    {
      name: "webhooks: lane ÷ ceiling lane (deliveries/s)",
      value: ratio(drain.perSecond, ceilingDrain.perSecond),
      unit: "",
      kind: "info",
      how: "the lane's backlog run ÷ the ceiling lane's: what the product adds to the least durable work (the per-webhook cap across instances, the hand-off, the retry schedule, the webhooks' health, LISTEN, spans, the address check)",
    },
    {
      name: "webhooks: PostgreSQL CPU per delivery, ceiling lane",
      value: ceilingCpu.postgresUs,
      unit: " µs",
      kind: "info",
      how: "as for the lane; the ceiling lane's own CPU per delivery is the CPU column of its line",
    },
    {
      name: "webhooks: lane ÷ bare sender with keep-alive",
      value: ratio(drain.perSecond, bareKeepAlive.run.perSecond),
      unit: "",
      kind: "info",
      how: "as the ratio above, the bare sender reusing connections (a keep-alive agent, as many sockets per receiver as requests in flight): not what safePost may do",
    },
  ];
  const details = {
    rate,
    committedPerSecond: Math.round(settings.events / committedIn),
    cpuPerDeliveryUs: {
      throughputRun: { lane: burstCpu.senderUs, postgres: burstCpu.postgresUs },
      backlogRun: { lane: drainCpu.senderUs, receivers: drainCpu.receiversUs, postgres: drainCpu.postgresUs },
      ceilingLane: { lane: ceilingCpu.senderUs, receivers: ceilingCpu.receiversUs, postgres: ceilingCpu.postgresUs },
      bare: { sender: bare.senderUs, receivers: bare.receiversUs, postgres: bare.postgresUs },
      bareKeepAlive: { sender: bareKeepAlive.senderUs, postgres: bareKeepAlive.postgresUs },
    },
    outcomes,
    rounds: {
      lane: drainRounds.map((r) => Math.round(r.run.perSecond)),
      ceiling: ceilingRounds.map((r) => Math.round(r.run.perSecond)),
      bare: bareRounds.map((r) => Math.round(r.run.perSecond)),
    },
    bare: { statuses: bare.statuses, errors: bare.errors },
    bareKeepAlive: { statuses: bareKeepAlive.statuses, errors: bareKeepAlive.errors },
  };
  return { measurements, checks, details };
}
