/**
 * The long-polling benchmark of `npm run bench` (`BENCH_LONGPOLL=1` in a full run; alone:
 * `BENCH_ONLY=longpoll`). `BENCH_LONGPOLL_CLIENTS` (200) accounts with one key each, and as many
 * clients in this process, each following its account's events with `GET /api/v1/events?wait=30`
 * against the production build (`next start`) on PostgreSQL: a client's request waits until an event
 * of its account is committed, and then asks again after the last event it got. The bench commits the
 * events itself with the product's `recordEvent`, each in its own transaction (the NOTIFY is sent at
 * its commit), and times each one from its commit (the transaction resolved here) to the answer
 * holding it (the body read by its client). A warm-up round (one event per account), then the paced
 * run (`BENCH_LONGPOLL_EVENTS` events at `BENCH_LONGPOLL_RATE` per second, the accounts in turn), then
 * a burst (one event per account, as fast as 4 producers commit them). docs/benchmarks.md ("Long
 * polling") explains the figures.
 */
import { performance } from "node:perf_hooks";
import type { Database } from "@/db";
import { createAccount } from "@/lib/domain/accounts/create-account";
import { hashPassword } from "@/lib/domain/accounts/internal/password";
import { eventTypes, recordEvent } from "@/lib/domain/events";
import { createKey } from "@/lib/domain/keys/create-key";
import type { OperatorActor, ServiceContext } from "@/lib/base/context";
import type { Cleanup } from "./lifecycle";
import { positiveEnv } from "./lifecycle";
import { processCpuUs, type Figure } from "./load";
import type { Check, Measurement } from "./report";
import { bearer } from "./requests";
import { currentRuntime } from "./runtimes";
import { startNext } from "./servers";

export const longPollSettings = {
  clients: positiveEnv("BENCH_LONGPOLL_CLIENTS", 200),
  events: positiveEnv("BENCH_LONGPOLL_EVENTS", 1000),
  /** Events committed per second in the paced run. */
  rate: positiveEnv("BENCH_LONGPOLL_RATE", 50),
  waitSeconds: 30,
  producers: 4,
  /** Seconds an event may go unanswered before it counts as missing. */
  timeoutSeconds: 60,
};

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

interface Follower {
  accountId: string;
  key: string;
}

/** What the clients saw: each event id with the moment its answer was read, and everything else. */
interface Observed {
  answeredAt: Map<string, number>;
  statuses: Record<string, number>;
  duplicates: number;
  errors: number;
  /** Answers without events: a wait that ended at its time-out (none is expected while events come). */
  emptyPages: number;
}

async function createFollowers(ctx: ServiceContext<OperatorActor>, count: number): Promise<Follower[]> {
  // One argon2 hash for every account: the bench measures reads, not sign-ups.
  const passwordHash = await hashPassword("bench-password");
  const followers: Follower[] = [];
  for (let i = 0; i < count; i++) {
    const account = await createAccount({ ctx, input: { email: `bench-longpoll-${i}@bench.example.com`, passwordHash } });
    const key = await createKey({ ctx, input: { accountId: account.id, name: "long poll", permissions: ["listings:read"], days: 30 } });
    followers.push({ accountId: account.id, key: key.key });
  }
  return followers;
}

/**
 * Each client follows its account's stream until `stopped`; the server's graceful shutdown then ends
 * the requests waiting (the empty page at once), and the clients stop there.
 */
function follow(url: string, followers: Follower[], stopped: () => boolean, observed: Observed): Promise<void>[] {
  return followers.map(async ({ key }) => {
    let after: string | undefined;
    while (!stopped()) {
      try {
        const response = await fetch(`${url}/api/v1/events?wait=${longPollSettings.waitSeconds}${after ? `&after=${after}` : ""}`, {
          headers: bearer(key),
        });
        const body = (await response.json()) as { data?: { id: string }[] };
        const at = now();
        observed.statuses[response.status] = (observed.statuses[response.status] ?? 0) + 1;
        if (response.status !== 200 || !body.data) {
          await sleep(1000);
          continue;
        }
        if (body.data.length === 0) observed.emptyPages += 1;
        for (const event of body.data) {
          if (observed.answeredAt.has(event.id)) observed.duplicates += 1;
          else observed.answeredAt.set(event.id, at);
        }
        after = body.data.at(-1)?.id ?? after;
      } catch (error) {
        if (stopped()) return;
        observed.errors += 1;
        process.stderr.write(`long poll request failed: ${(error as Error).message}\n`);
        await sleep(1000);
      }
    }
  });
}

/** Commits one event of `accountId` in its own transaction; answers its id and the moment the commit resolved. */
async function commitEvent(database: Database, accountId: string, n: number): Promise<[string, number]> {
  const event = await database.connection.transaction((tx) =>
    recordEvent(tx, { accountId, type: eventTypes.paused, data: { bench: n }, now: new Date() }),
  );
  if (!event) throw new Error(`account ${accountId} has no key: no event recorded`);
  return [event.id, now()];
}

/** Latencies (ms, sorted) of the committed events answered so far, waiting up to the time-out for the rest. */
async function answered(committed: Map<string, number>, observed: Observed): Promise<{ latencies: number[]; missing: number }> {
  const deadline = now() + longPollSettings.timeoutSeconds * 1000;
  const unanswered = () => [...committed.keys()].filter((id) => !observed.answeredAt.has(id)).length;
  while (unanswered() > 0 && now() < deadline) await sleep(20);
  const latencies = [...committed]
    .filter(([id]) => observed.answeredAt.has(id))
    .map(([id, at]) => observed.answeredAt.get(id)! - at)
    .sort((a, b) => a - b);
  return { latencies, missing: unanswered() };
}

export async function runLongPollBench(input: {
  ctx: ServiceContext<OperatorActor>;
  databaseUrl: string;
  log: (line: string) => void;
  cleanup: Cleanup;
  loadAverage: () => number;
}): Promise<{ measurements: Measurement[]; checks: Check[]; details: Record<string, unknown> }> {
  const { ctx, log, cleanup } = input;
  const settings = longPollSettings;
  const database = ctx.database;
  log(`long polling: ${settings.clients} accounts with a key each`);
  const followers = await createFollowers(ctx, settings.clients);
  const server = await startNext({
    DATABASE_URL: input.databaseUrl,
    APP_ENV: "sandbox",
    JOBS_RUNNER: "off",
    LOG_LEVEL: "error",
    API_LOG: "on",
  });
  cleanup(server.stop);
  const observed: Observed = { answeredAt: new Map(), statuses: {}, duplicates: 0, errors: 0, emptyPages: 0 };
  let stopped = false;
  const clients = follow(server.url, followers, () => stopped, observed);
  cleanup(async () => {
    stopped = true;
    await server.stop();
    await Promise.all(clients);
  });
  // Every client's first request reads an empty stream and waits.
  await sleep(3000);

  /** Commits `count` events, the accounts in turn from `first`, at `rate` per second (or as fast as the producers go). */
  const commitRun = async (count: number, first: number, rate?: number) => {
    const committed = new Map<string, number>();
    const started = now();
    let next = 0;
    const producer = async () => {
      while (next < count) {
        const n = next++;
        if (rate) await sleep(Math.max(0, started + (n * 1000) / rate - now()));
        const [id, at] = await commitEvent(database, followers[(first + n) % followers.length].accountId, first + n);
        committed.set(id, at);
      }
    };
    await Promise.all(Array.from({ length: settings.producers }, producer));
    return { committed, seconds: (now() - started) / 1000 };
  };

  log(`long polling: warm-up, one event per account at ${settings.rate}/s`);
  const warmup = await commitRun(settings.clients, 0, settings.rate);
  await answered(warmup.committed, observed);
  await sleep(1000);
  const emptyBefore = observed.emptyPages;

  log(`long polling: ${settings.events} events at ${settings.rate}/s`);
  const loadAverage = input.loadAverage();
  const cpuBefore = processCpuUs(server.pid);
  const paced = await commitRun(settings.events, settings.clients, settings.rate);
  const pacedAnswers = await answered(paced.committed, observed);
  const serverCpuUs = Math.round((processCpuUs(server.pid) - cpuBefore) / Math.max(1, pacedAnswers.latencies.length));
  await sleep(1000);

  log(`long polling: a burst of one event per account (${settings.producers} producers)`);
  const burst = await commitRun(settings.clients, settings.clients + settings.events);
  const burstAnswers = await answered(burst.committed, observed);

  // The server's SIGTERM answers every waiting request at once with the empty page.
  const emptyWhileEventsCame = observed.emptyPages - emptyBefore;
  stopped = true;
  await server.stop();
  await Promise.all(clients);

  const latencies = pacedAnswers.latencies;
  const errors = observed.errors + observed.duplicates + pacedAnswers.missing + burstAnswers.missing;
  const figure: Figure = {
    requestsPerSecond: round(latencies.length / paced.seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    meanMs: round(latencies.reduce((sum, ms) => sum + ms, 0) / Math.max(1, latencies.length)),
    requests: latencies.length,
    seconds: round(paced.seconds),
    statuses: observed.statuses,
    non2xx: Object.entries(observed.statuses).reduce((sum, [status, n]) => sum + (status === "200" ? 0 : n), 0),
    errors,
    serverCpuUs,
  };
  const measurements: Measurement[] = [
    {
      name: `${currentRuntime().name}  long polling: ${settings.events} events at ${settings.rate}/s to ${settings.clients} waiting clients (commit → answer)`,
      figure,
      expected: [200],
      loadAverage,
    },
  ];
  const how = `from each event's commit (its transaction resolved in the bench) to its client having read the answer of its GET /api/v1/events?wait=${settings.waitSeconds}; ${settings.clients} clients, one account and key each, every one waiting on the server (next start, PostgreSQL)`;
  const burstHow = `the same, ${settings.clients} events (one per account) committed by ${settings.producers} producers as fast as they go: every client woken within the burst`;
  const checks: Check[] = [
    { name: "long polling: commit → answer p50", value: figure.p50Ms, unit: " ms", kind: "max", target: 100, how },
    { name: "long polling: commit → answer p99", value: figure.p99Ms, unit: " ms", kind: "max", target: 100, how },
    {
      name: "long polling: burst commit → answer p50",
      value: round(percentile(burstAnswers.latencies, 50)),
      unit: " ms",
      kind: "info",
      how: burstHow,
    },
    {
      name: "long polling: burst commit → answer p99",
      value: round(percentile(burstAnswers.latencies, 99)),
      unit: " ms",
      kind: "info",
      how: burstHow,
    },
  ];
  const details = {
    statuses: observed.statuses,
    fetchErrors: observed.errors,
    duplicates: observed.duplicates,
    missing: { paced: pacedAnswers.missing, burst: burstAnswers.missing },
    emptyPagesWhileEventsCame: emptyWhileEventsCame,
    answeredByShutdown: observed.emptyPages - emptyBefore - emptyWhileEventsCame,
    burst: { committedIn: round(burst.seconds, 2), maxMs: round(burstAnswers.latencies.at(-1) ?? 0) },
    pacedMaxMs: round(latencies.at(-1) ?? 0),
  };
  log(`long polling: ${JSON.stringify(details)}`);
  return { measurements, checks, details };
}
