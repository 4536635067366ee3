/**
 * `npm run bench`: the production build on Node 20 and Node 24 (`npx -y node@24`) in one run, each
 * against the framework's floor (a route handler doing nothing) and against bare `node:http` +
 * postgres.js servers doing the same database work, on a throwaway PostgreSQL database. Progress
 * goes to stderr; figures, the summary table and `.data/bench/results.json` are the output. Exits 1
 * when a measurement is invalid (an unexpected status, connection errors) or the run fails; a
 * missed target is reported as MISS. docs/benchmarks.md explains the figures and the knobs.
 */
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { OperatorActor, ServiceContext } from "@/lib/base/context";
import { encodeSequenceCursor } from "@/lib/base/cursor";
import { KeyPool } from "./key-pool";
import { positiveEnv, runScript, throwawayDatabase } from "./lifecycle";
import { measure, plannedRequests, type Figure, type LoadPlan } from "./load";
import { bearer, cycle, keysInTurn, patchRequestAt, readRequests } from "./requests";
import { measurementLine, mergeTurns, successes, summaryTable, valid, writeResults, type Check, type Measurement } from "./report";
import { createAccounts, listingsOf, listingTemplate, seedListings } from "./seed";
import { currentRuntime, node24, type Runtime } from "./runtimes";
import { startOtlpSink } from "./otlp-sink";
import { ensureBuild, ensureCeilingBuild, startBare, startCeiling, startNext, type RunningServer } from "./servers";
import { photoSettings, runPhotoBench } from "./photos";
import { runWebhookBench, webhookSettings } from "./webhooks";
import { importSettings, runImportBench } from "./imports";
import { longPollSettings, runLongPollBench } from "./longpoll";

const settings = {
  adminUrl: process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  duration: positiveEnv("BENCH_DURATION", 10),
  /** Turns per side of a figure with a target (`inTurns`): the measured seconds split between them. */
  turns: positiveEnv("BENCH_TURNS", 4),
  warmup: positiveEnv("BENCH_WARMUP", 3),
  /** Seconds each server serves each figure's own requests (ping, read, PATCH), unmeasured, before the first figure. */
  settle: positiveEnv("BENCH_SETTLE", 10),
  connections: positiveEnv("BENCH_CONNECTIONS", 10),
  maxRate: positiveEnv("BENCH_MAX_RATE", 4000),
  listings: 10_000,
  bulkListings: positiveEnv("BENCH_BULK_LISTINGS", 1_000_000),
  listRequests: positiveEnv("BENCH_LIST_REQUESTS", 2000),
  listWarmup: 200,
  skipBulk: process.env.BENCH_SKIP_1M === "1",
  node24: process.env.BENCH_NODE24 !== "0",
  /**
   * `webhooks`: only the webhook delivery figures (no Next.js build or server); `photos`: only the photo
   * processing figures; `longpoll`: only the long-polling figures; `imports`: only the bulk import figures.
   */
  only: process.env.BENCH_ONLY,
  webhooks: process.env.BENCH_WEBHOOKS !== "0",
  photos: process.env.BENCH_PHOTOS !== "0",
  /** Off unless asked for: 200 more accounts and a server of its own, for a figure that changes little between runs. */
  longpoll: process.env.BENCH_LONGPOLL === "1",
  /** A folder: each Next.js server (the product tracing off and on, the ceiling app; per runtime) writes a V8 CPU profile under it (`--cpu-prof`). */
  cpuProfDir: process.env.BENCH_API_CPU_PROF,
  /**
   * A twin of the tracing-off server: it takes every turn the tracing-on server takes, then is PATCHed
   * side by side with the first as the tracing-on server is: how far two servers of the same build differ.
   */
  tracingControl: process.env.BENCH_TRACING_CONTROL === "1",
};
const resultsFile = path.resolve(".data/bench/results.json");

/** `--cpu-prof` into `<BENCH_API_CPU_PROF>/<runtime>-<server>` (written when the server stops), or nothing. */
const cpuProfile = (runtime: Runtime, server: string) =>
  settings.cpuProfDir
    ? `--cpu-prof --cpu-prof-dir=${path.resolve(settings.cpuProfDir, `${runtime.name.replace(/\s+/g, "")}-${server}`)}`
    : undefined;
const started = Date.now();
const log = (line: string) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

// The bench process creates keys with the product's services: sandbox keys, as the server expects.
process.env.APP_ENV = "sandbox";

async function main(cleanup: (step: () => Promise<void>) => void): Promise<number> {
  if (settings.only !== undefined && !["webhooks", "photos", "longpoll", "imports"].includes(settings.only))
    throw new Error(`BENCH_ONLY=${settings.only}: "webhooks", "photos", "longpoll" and "imports" are known`);
  if (settings.only === "webhooks") {
    return partOnly(cleanup, {
      name: "webhooks",
      run: runWebhookBench,
      settings: webhookSettings,
      invalid: "deliveries missing, repeated or unsigned",
    });
  }
  if (settings.only === "photos") {
    // The server part runs `next start`: the production build must be current.
    if (photoSettings.server) await ensureBuild(log);
    return partOnly(cleanup, { name: "photos", run: runPhotoBench, settings: photoSettings, invalid: "unexpected statuses or errors" });
  }
  if (settings.only === "longpoll") {
    await ensureBuild(log);
    return partOnly(cleanup, {
      name: "longpoll",
      run: runLongPollBench,
      settings: longPollSettings,
      invalid: "unexpected statuses, failed requests, events missing or answered twice",
    });
  }
  if (settings.only === "imports") {
    await ensureBuild(log);
    return partOnly(cleanup, {
      name: "imports",
      run: runImportBench,
      settings: importSettings,
      invalid: "PUTs not answered 201, or lines of the import not created",
    });
  }
  await ensureBuild(log);
  await ensureCeilingBuild(log);
  const { throwaway, pg, ctx } = await throwawayDatabase(settings.adminUrl, "bench", log, cleanup);

  const timed = { duration: settings.duration, warmup: settings.warmup };
  // Sized for the longest run: a full one, or a first turn with its longer warm-up (inTurns).
  const accountsPerPool = Math.ceil(KeyPool.keysFor(plannedRequests({ ...timed, warmup: settings.warmup * 3 }, settings.maxRate)) / 10);
  log(
    `creating 3 × ${accountsPerPool} accounts with 10 keys each (≤ ${settings.maxRate} req/s for ${settings.duration + settings.warmup * 3} s without a 429)`,
  );
  const [pingAccounts, readAccounts, patchAccounts] = [
    await createAccounts(ctx, "ping", accountsPerPool),
    await createAccounts(ctx, "read", accountsPerPool),
    await createAccounts(ctx, "patch", accountsPerPool),
  ];
  const template = await listingTemplate(ctx);
  log(`seeding ${settings.listings} listings`);
  await seedListings(pg, { template, owners: [...readAccounts, ...patchAccounts].map((a) => a.id), first: 1, count: settings.listings });
  const readListings = await listingsOf(
    pg,
    readAccounts.map((a) => a.id),
  );
  const patchListings = await listingsOf(
    pg,
    patchAccounts.map((a) => a.id),
  );

  const bulk = settings.skipBulk ? undefined : await seedBulk(ctx, pg, template);
  // Vacuumed as well as analysed: otherwise autovacuum takes up the fresh rows during the first figures (in
  // one run PostgreSQL spent 1 408 µs of CPU per request of the floor's run, which uses no database).
  await pg`vacuum analyze`;

  const runtimes: Runtime[] = [currentRuntime()];
  if (settings.node24) {
    log("finding Node 24 (npx -y node@24)…");
    const found = node24();
    if ("unavailable" in found) log(`Node 24 skipped: ${found.unavailable}`);
    else if (found.node !== runtimes[0].node) runtimes.push(found);
  } else log("Node 24 skipped: BENCH_NODE24=0");
  const servers = new Map<
    Runtime,
    { next: RunningServer; traced: RunningServer; bare: RunningServer; ceiling: RunningServer; control?: RunningServer }
  >();
  // The "tracing on" PATCH: a second server of the same build exporting its spans and metrics to a sink.
  const sink = await startOtlpSink();
  cleanup(sink.stop);
  for (const runtime of runtimes) {
    const productEnv = { DATABASE_URL: throwaway.url, APP_ENV: "sandbox", JOBS_RUNNER: "off", LOG_LEVEL: "error", API_LOG: "on" };
    const next = await startNext(productEnv, { runtime, nodeOptions: cpuProfile(runtime, "tracing-off") });
    cleanup(next.stop);
    const traced = await startNext(
      { ...productEnv, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url },
      { runtime, nodeOptions: cpuProfile(runtime, "tracing-on") },
    );
    cleanup(traced.stop);
    const bare = await startBare(throwaway.url, runtime);
    cleanup(bare.stop);
    const ceiling = await startCeiling(throwaway.url, runtime, cpuProfile(runtime, "ceiling"));
    cleanup(ceiling.stop);
    const control = settings.tracingControl ? await startNext(productEnv, { runtime }) : undefined;
    if (control) cleanup(control.stop);
    servers.set(runtime, { next, traced, bare, ceiling, control });
    log(
      `${runtime.name} (${runtime.version}, ${runtime.node}): Next.js on ${next.url} (tracing on: ${traced.url}), bare server on ${bare.url}, ceiling app on ${ceiling.url}`,
    );
  }

  const measurements: Measurement[] = [];
  /** A load's `ready` when it runs alone. */
  const alone = async () => {};
  const record = (measurement: Measurement) => {
    measurements.push(measurement);
    console.log(measurementLine(measurement));
  };
  /** One load run; `seconds` replaces the measured duration (a turn), `amount` measures a number of requests instead. */
  const load = async (
    name: string,
    server: RunningServer,
    pool: KeyPool | undefined,
    requestAt: LoadPlan["requestAt"],
    expected: number[],
    size: { amount?: number; seconds?: number; warmup?: number } = {},
    /** Awaited once the key pool lets the load start, before it starts (side by side: the other sides' start). */
    ready: () => Promise<void> = alone,
  ): Promise<Measurement> => {
    const plan: LoadPlan = {
      url: server.url,
      requestAt,
      connections: settings.connections,
      serverPid: server.pid,
      // Side by side (`ready` given) both loads share the database, so its CPU is no one's alone.
      databaseCpu: ready === alone,
      ...(size.amount
        ? { duration: 0, amount: size.amount, warmup: settings.listWarmup }
        : { duration: size.seconds ?? timed.duration, warmup: size.warmup ?? timed.warmup }),
    };
    const fullName = `${server.runtime.name}  ${name}`;
    log(`measuring ${fullName}${size.seconds ? ` (a turn of ${size.seconds} s)` : ""}`);
    const loadAverage = os.loadavg()[0];
    const start = async () => {
      await ready();
      return measure(plan);
    };
    const figure = pool ? await pool.run(plannedRequests(plan, settings.maxRate), log, start) : await start();
    // Lets the API log's buffered writes and the last connections settle before the next run.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return { name: fullName, figure, expected, loadAverage };
  };
  const run = async (...args: Parameters<typeof load>): Promise<Figure> => {
    const measurement = await load(...args);
    record(measurement);
    return measurement.figure;
  };
  /**
   * Figures taken in turns, A B C, C B A, A B C, C B A (`BENCH_TURNS` rounds, the measured seconds split
   * between them), each turn after its own warm-up, each side's turns then merged (mergeTurns). The
   * ratios with targets divide one server's figure by another's, and this machine's speed moves by up
   * to 2× within minutes and sometimes within seconds (the same ceiling read: 1 272 then 568 req/s in
   * two turns 10 s apart): figures taken minutes apart measured that drift as much as the servers;
   * turns in mirrored order give a steady drift to every side alike, and more, shorter rounds spread a
   * sudden swing over every side instead of one. `requests` is asked once per turn, so that each PATCH
   * turn writes prices of its own. A side's first turn warms up three times as long: a server's first
   * thousands of requests run code V8 has not optimized yet (a fresh ceiling app spent 1 569 µs of CPU
   * per ping in its first turn and 1 082 µs in its second), and the servers come to a figure with
   * unequal pasts (the product has served the floor, the tracing-on server nothing). Later turns warm
   * up a third as long: the server is warm, the new connections are what the warm-up is for.
   */
  type Side = [name: string, server: RunningServer, pool: KeyPool | undefined, requests: () => LoadPlan["requestAt"], expected: number[]];
  const inTurns = async (...sides: Side[]): Promise<Figure[]> => {
    const seconds = Math.max(1, Math.round(settings.duration / settings.turns));
    const turn = async ([name, server, pool, requests, expected]: Side, warmup: number) => {
      const measurement = await load(name, server, pool, requests(), expected, { seconds, warmup });
      log(`  turn: ${measurementLine(measurement)}`);
      return measurement;
    };
    const turns: Measurement[][] = sides.map(() => []);
    for (let round = 0; round < settings.turns; round++) {
      const order = sides.map((_, i) => i);
      if (round % 2 === 1) order.reverse();
      const warmup = round === 0 ? settings.warmup * 3 : Math.max(1, Math.round(settings.warmup / 3));
      for (const i of order) turns[i].push(await turn(sides[i], warmup));
    }
    return turns.map((measurements) => {
      const merged = mergeTurns(measurements);
      record(merged);
      return merged.figure;
    });
  };

  /**
   * Two servers measured at the same time, each under its own load, in `BENCH_TURNS` rounds of the
   * turns' length (each after a warm-up of a third of `BENCH_WARMUP`), each side's rounds then merged.
   * For two servers that do the same database work (tracing on and off) this cancels what turns only
   * spread: every swing of the machine falls on both sides in the same second. They share the cores
   * fairly, so the ratio of their figures is the ratio of their costs. Not for the product against the
   * ceiling app: tried on 2026-11-27, its rounds gave the product's ping 0.83 to 1.56 of the ceiling's,
   * which the product, doing the ceiling's work and more, cannot be; turns spread the swings instead.
   * The sides' `requests` must write to different listings, or they would refuse each other 409.
   */
  const sideBySide = async (...sides: Side[]): Promise<Figure[]> => {
    const seconds = Math.max(1, Math.round(settings.duration / settings.turns));
    const warmup = Math.max(1, Math.round(settings.warmup / 3));
    const rounds: Measurement[][] = sides.map(() => []);
    for (let round = 0; round < settings.turns; round++) {
      const allReady = barrier(sides.length);
      const measured = await Promise.all(
        sides.map(([name, server, pool, requests, expected]) =>
          load(name, server, pool, requests(), expected, { seconds, warmup }, allReady),
        ),
      );
      measured.forEach((measurement, i) => {
        log(`  side by side: ${measurementLine(measurement)}`);
        rounds[i].push(measurement);
      });
    }
    return rounds.map((measurements) => {
      const merged = mergeTurns(measurements);
      record(merged);
      return merged.figure;
    });
  };

  // Each server limits in its own memory, so each runtime gets pools of its own over the same keys.
  const pools = new Map(
    runtimes.map((r) => [
      r,
      {
        ping: new KeyPool(pingAccounts),
        read: new KeyPool(readAccounts),
        patch: new KeyPool(patchAccounts),
        tracedPing: new KeyPool(pingAccounts),
        tracedRead: new KeyPool(readAccounts),
        tracedPatch: new KeyPool(patchAccounts),
        twin: { ping: new KeyPool(pingAccounts), read: new KeyPool(readAccounts), patch: new KeyPool(patchAccounts) },
      },
    ]),
  );
  /** The twin's side of a figure's turns (BENCH_TRACING_CONTROL=1): the same past as the tracing-on server's. */
  const twinSide = (r: Runtime, name: string, pool: "ping" | "read" | "patch", requests: Side[3], expected = [200]): Side[] => {
    const control = servers.get(r)!.control;
    return control ? [[name, control, pools.get(r)!.twin[pool], requests, expected]] : [];
  };
  const pingAt = keysInTurn(pools.get(runtimes[0])!.ping.keys, "/api/v1/ping");
  const reads = cycle(readRequests(readAccounts, readListings));
  // Every PATCH run writes prices of its own, so that no request of a later run finds its price already stored.
  let firstPrice = 200_000;
  const patchAt = () => patchRequestAt(patchAccounts, patchListings, (firstPrice += 10_000));
  // Two servers PATCHing side by side write to halves of the listings, so neither finds a listing the other holds.
  const halves = [0, 1].map((half) => patchListings.filter((_, i) => i % 2 === half));
  const patchHalfAt = (half: number) => () => patchRequestAt(patchAccounts, halves[half], (firstPrice += 10_000));

  // The runtimes take turns figure by figure, so that a change on the machine skews both alike; within a
  // figure the product and the ceiling app (the bare servers' work in one Next.js route handler,
  // bench/ceiling-app, no limit, no pool) take turns too.
  const firstFloors = new Map<Runtime, Figure>();
  const pings = new Map<Runtime, Figure>();
  const readsNext = new Map<Runtime, Figure>();
  const patches = new Map<Runtime, { next: Figure; traced: Figure; bare: Figure; beside: Figure; tracedBeside: Figure }>();
  const twins = new Map<Runtime, { first: Figure; second: Figure }>();
  const ceilings = new Map<Runtime, { ping: Figure; read: Figure; patch: Figure }>();
  // The framework's own cost per request: a route handler with no database and no pipeline.
  const health = () => ({ method: "GET" as const, path: "/api/health", headers: {} });
  for (const r of runtimes) {
    const { next, traced, ceiling } = servers.get(r)!;
    firstFloors.set(r, await run("GET /api/health (Next.js, no database: the floor)", next, undefined, health, [200]));
    // The other two serve as long first, unmeasured: a server's CPU per request falls for its first tens
    // of thousands of requests (a fresh copy of the product, tracing off too, spent 3 030 µs per PATCH
    // in its first turn and 2 190 µs in its second, as much as the first server's), so every server
    // comes to the figures with the same past, and the tracing-on one serves the ping and read too.
    await load("GET /api/health (Next.js, tracing on: warm-up)", traced, undefined, health, [200]);
    const { control } = servers.get(r)!;
    if (control) await load("GET /api/health (Next.js twin: warm-up)", control, undefined, health, [200]);
    await load("GET /api/health (ceiling: warm-up, refused 401)", ceiling, undefined, health, [401]);
  }
  // Then every server serves each figure's own requests for the same time, unmeasured: a server's CPU
  // per request goes on falling long after its first thousands of requests, and a figure measured while
  // one server is still settling measures its past. Without this the ceiling app's read came out cheaper
  // than its own ping (913 against 1 303 µs of CPU a request), the ping being its first work with the
  // database; served long enough, each of its reads costs more than a ping, as it must.
  for (const r of runtimes) {
    const { next, traced, ceiling, control } = servers.get(r)!;
    const p = pools.get(r)!;
    const settling: [string, RunningServer, Record<"ping" | "read" | "patch", KeyPool | undefined>][] = [
      ["Next.js", next, { ping: p.ping, read: p.read, patch: p.patch }],
      ["Next.js, tracing on", traced, { ping: p.tracedPing, read: p.tracedRead, patch: p.tracedPatch }],
      ...(control ? [["Next.js twin", control, p.twin] as [string, RunningServer, Record<"ping" | "read" | "patch", KeyPool>]] : []),
      ["ceiling", ceiling, { ping: undefined, read: undefined, patch: undefined }],
    ];
    const size = { seconds: settings.settle, warmup: 1 };
    for (const [name, server, pool] of settling) {
      await load(`GET /api/v1/ping (${name}: settling)`, server, pool.ping, pingAt, [200], size);
      await load(`GET /api/v1/account/listings/{code} (${name}: settling)`, server, pool.read, reads, [200], size);
      await load(`PATCH /api/v1/listings/{code} (${name}: settling)`, server, pool.patch, patchAt(), [200, 409], size);
    }
  }
  const ceilingPings = new Map<Runtime, Figure>();
  const ceilingReads = new Map<Runtime, Figure>();
  const tracedPings = new Map<Runtime, Figure>();
  const tracedReads = new Map<Runtime, Figure>();
  for (const r of runtimes) {
    const { next, traced, ceiling } = servers.get(r)!;
    const [product, productTraced, bound] = await inTurns(
      ["GET /api/v1/ping (Next.js)", next, pools.get(r)!.ping, () => pingAt, [200]],
      ["GET /api/v1/ping (Next.js, tracing on)", traced, pools.get(r)!.tracedPing, () => pingAt, [200]],
      ["GET /api/v1/ping (ceiling: bare work in Next.js)", ceiling, undefined, () => pingAt, [200]],
      ...twinSide(r, "GET /api/v1/ping (Next.js twin, tracing off)", "ping", () => pingAt),
    );
    pings.set(r, product);
    tracedPings.set(r, productTraced);
    ceilingPings.set(r, bound);
  }
  for (const r of runtimes) {
    const { next, traced, ceiling } = servers.get(r)!;
    const [product, productTraced, bound] = await inTurns(
      ["GET /api/v1/account/listings/{code} (Next.js)", next, pools.get(r)!.read, () => reads, [200]],
      ["GET /api/v1/account/listings/{code} (Next.js, tracing on)", traced, pools.get(r)!.tracedRead, () => reads, [200]],
      ["GET /api/v1/account/listings/{code} (ceiling)", ceiling, undefined, () => reads, [200]],
      ...twinSide(r, "GET /api/v1/account/listings/{code} (Next.js twin, tracing off)", "read", () => reads),
    );
    readsNext.set(r, product);
    tracedReads.set(r, productTraced);
    ceilingReads.set(r, bound);
  }
  const eventsBefore = await eventCount(pg);
  for (const r of runtimes) {
    const { next, traced, ceiling, bare, control } = servers.get(r)!;
    const [product, productTraced, bound] = await inTurns(
      ["PATCH /api/v1/listings/{code} (Next.js)", next, pools.get(r)!.patch, patchAt, [200, 409]],
      ["PATCH /api/v1/listings/{code} (Next.js, tracing on)", traced, pools.get(r)!.tracedPatch, patchAt, [200, 409]],
      ["PATCH /api/v1/listings/{code} (ceiling)", ceiling, undefined, patchAt, [200, 409]],
      ...twinSide(r, "PATCH /api/v1/listings/{code} (Next.js twin, tracing off)", "patch", patchAt, [200, 409]),
    );
    // Tracing's cost: both servers of the same build, warm from the turns, measured side by side.
    const [beside, tracedBeside] = await sideBySide(
      ["PATCH /api/v1/listings/{code} (Next.js, beside tracing on)", next, pools.get(r)!.patch, patchHalfAt(0), [200]],
      ["PATCH /api/v1/listings/{code} (Next.js, tracing on, beside off)", traced, pools.get(r)!.tracedPatch, patchHalfAt(1), [200]],
    );
    if (control) {
      const [first, second] = await sideBySide(
        ["PATCH /api/v1/listings/{code} (Next.js, beside its twin)", next, pools.get(r)!.patch, patchHalfAt(0), [200]],
        ["PATCH /api/v1/listings/{code} (Next.js twin, tracing off)", control, pools.get(r)!.twin.patch, patchHalfAt(1), [200]],
      );
      twins.set(r, { first, second });
    }
    const barePatch = await run("PATCH /api/v1/listings/{code} (bare node:http)", bare, undefined, patchAt(), [200, 409]);
    patches.set(r, { next: product, traced: productTraced, bare: barePatch, beside, tracedBeside });
    ceilings.set(r, { ping: ceilingPings.get(r)!, read: ceilingReads.get(r)!, patch: bound });
  }
  // The spans are sent in batches every 5 s: by now the traced servers have sent some, or they traced nothing.
  if (sink.exports().traces === 0)
    throw new Error("the tracing-on servers exported no spans to the OTLP sink: that figure measured no tracing");
  log(`OTLP sink: ${sink.exports().traces} span exports, ${sink.exports().metrics} metric exports`);
  // The ceiling app's log rows (request ids without the product's `req_`) must all be there, or its figures measured less work.
  const ceilingAnswered = [...ceilings.values()].reduce((sum, c) => sum + c.ping.requests + c.read.requests + c.patch.requests, 0);
  const [{ rows: ceilingRows }] = await pg<
    { rows: number }[]
  >`select count(*)::int as rows from api_log where left(request_id, 4) <> 'req_'`;
  if (ceilingRows < ceilingAnswered)
    throw new Error(
      `the ceiling app logged ${ceilingRows} requests of the ${ceilingAnswered} it answered: its figures measured less work than the product's`,
    );
  log(`API log: ${ceilingRows} rows of the ceiling app and the bare server (${ceilingAnswered} measured requests of the ceiling app)`);
  const [{ writes }] = await pg<
    { writes: number }[]
  >`select coalesce(sum(version - 1), 0)::int as writes from listings where account_id = any(${patchAccounts.map((a) => a.id)})`;
  const patchFigures = [...patches.values()].flatMap((p) => [p.next, p.traced, p.bare, p.beside, p.tracedBeside]);
  const busy = patchFigures.reduce((sum, f) => sum + (f.statuses["409"] ?? 0), 0);
  log(
    `PATCH runs: ${patchFigures.reduce((sum, f) => sum + successes(f), 0)} × 200, ${busy} × 409 listing_busy; ${writes} versions written (warm-ups included); ${(await eventCount(pg)) - eventsBefore} events written`,
  );
  // The floor once more, after the other figures: other work on a shared machine only ever lowers a
  // figure, so the higher of the two is the floor the ratios divide by (never flattering a ratio).
  const floors = new Map<Runtime, Figure>();
  for (const r of runtimes) {
    const again = await run("GET /api/health again (the floor, second run)", servers.get(r)!.next, undefined, health, [200]);
    floors.set(r, again.requestsPerSecond > firstFloors.get(r)!.requestsPerSecond ? again : firstFloors.get(r)!);
  }
  // The bare read baselines, once: the ceiling line below compares the floor with them.
  const base = servers.get(runtimes[0])!.bare;
  const pingBare = await run("GET /api/v1/ping (bare node:http)", base, undefined, pingAt, [200]);
  const readBare = await run("GET /api/v1/account/listings/{code} (bare)", base, undefined, reads, [200]);

  const checks: Check[] = runtimes.flatMap((r) => [
    {
      name: `${r.name} ping ÷ floor`,
      value: ratio(pings.get(r)!.requestsPerSecond, floors.get(r)!.requestsPerSecond),
      unit: "",
      kind: "info" as const,
      how: "req/s of authenticated GET /api/v1/ping ÷ req/s of GET /api/health (a route handler doing nothing; the higher of its two runs), same server",
    },
    {
      name: `${r.name} read ÷ floor`,
      value: ratio(readsNext.get(r)!.requestsPerSecond, floors.get(r)!.requestsPerSecond),
      unit: "",
      kind: "info" as const,
      how: `req/s of GET /api/v1/account/listings/{code} over ${readListings.length} listings ÷ req/s of GET /api/health, same server`,
    },
    {
      name: `${r.name} PATCH ÷ bare PATCH`,
      value: ratio(perSecond(patches.get(r)!.next), perSecond(patches.get(r)!.bare)),
      unit: "",
      kind: "info" as const,
      how:
        `2xx/s of PATCH /api/v1/listings/{code} with a new price over ${patchListings.length} pending listings ÷ 2xx/s of the bare server's same ` +
        "transaction (key lookup, SELECT … FOR UPDATE NOWAIT, UPDATE, the outbox insert where the product makes one, the API log's row; no validator) on the same runtime; 409 listing_busy not counted",
    },
    {
      name: `${r.name} ping and read tracing on ÷ off`,
      value: ratio(
        tracedPings.get(r)!.requestsPerSecond + tracedReads.get(r)!.requestsPerSecond,
        pings.get(r)!.requestsPerSecond + readsNext.get(r)!.requestsPerSecond,
      ),
      unit: "",
      kind: "info" as const,
      how: "req/s of the ping and the listing read summed, on the tracing-on server ÷ on the tracing-off one, same runtime",
    },
    {
      name: `${r.name} PATCH tracing on ÷ off, in turns`,
      value: ratio(perSecond(patches.get(r)!.traced), perSecond(patches.get(r)!.next)),
      unit: "",
      kind: "info" as const,
      how: "2xx/s of PATCH on the tracing-on server ÷ on the tracing-off one, each in its turns with the ceiling app",
    },
    {
      name: `${r.name} PATCH tracing on ÷ off`,
      value: ratio(perSecond(patches.get(r)!.tracedBeside), perSecond(patches.get(r)!.beside)),
      unit: "",
      kind: "min" as const,
      target: 0.9,
      how:
        "2xx/s of PATCH on a second server of the same build with OTEL_EXPORTER_OTLP_ENDPOINT set (a span per request, operation and query, " +
        "exported over OTLP/HTTP to a local sink that discards them) ÷ 2xx/s of the tracing-off server, the two measured side by side after their turns, same runtime",
    },
    ...(twins.has(r)
      ? [
          {
            name: `${r.name} PATCH twin ÷ first, tracing off both`,
            value: ratio(perSecond(twins.get(r)!.second), perSecond(twins.get(r)!.first)),
            unit: "",
            kind: "info" as const,
            how: "the same measure as tracing on ÷ off, between two tracing-off servers of the same build (BENCH_TRACING_CONTROL=1): what it resolves",
          },
        ]
      : []),
  ]);
  // The figures with targets: the product against the ceiling app, the same database work in one bare
  // Next.js route handler on the same runtime. Targets on Node 24, the production runtime; Node 20's are
  // printed for comparison.
  for (const r of runtimes) {
    const c = ceilings.get(r)!;
    const targeted = r.name === "Node 24";
    const ofCeiling = (name: string, value: number, target: number, how: string): Check => ({
      name: `${r.name} ${name} ÷ ceiling`,
      value,
      unit: "",
      ...(targeted ? { kind: "min" as const, target } : { kind: "info" as const }),
      how,
    });
    checks.push(
      ofCeiling(
        "ping",
        ratio(pings.get(r)!.requestsPerSecond, c.ping.requestsPerSecond),
        0.9,
        "req/s of authenticated GET /api/v1/ping ÷ req/s of the ceiling app's ping (the bare key lookup and the API log's row in a Next.js route handler)",
      ),
      ofCeiling(
        "read",
        ratio(readsNext.get(r)!.requestsPerSecond, c.read.requestsPerSecond),
        0.85,
        "req/s of GET /api/v1/account/listings/{code} ÷ req/s of the ceiling app's read (key lookup, read and the API log's row, no pipeline)",
      ),
      ofCeiling(
        "PATCH",
        ratio(perSecond(patches.get(r)!.next), perSecond(c.patch)),
        0.75,
        "2xx/s of PATCH /api/v1/listings/{code} ÷ 2xx/s of the ceiling app's PATCH (the bare transaction and the API log's row, no validator, in a route handler); 409 listing_busy not counted",
      ),
    );
  }
  for (const r of runtimes) {
    const c = ceilings.get(r)!;
    const bound = (name: string, value: number, how: string): Check => ({
      name: `${r.name} ceiling: ${name}`,
      value,
      unit: "",
      kind: "info",
      how,
    });
    checks.push(
      bound(
        "ping ÷ floor",
        ratio(c.ping.requestsPerSecond, floors.get(r)!.requestsPerSecond),
        "req/s of the ceiling app's ping (the bare key lookup in a Next.js route handler) ÷ the floor: the most any Next.js ping with one database round trip reaches",
      ),
      bound(
        "read ÷ floor",
        ratio(c.read.requestsPerSecond, floors.get(r)!.requestsPerSecond),
        "req/s of the ceiling app's listing read (key lookup and read, no pipeline) ÷ the floor",
      ),
      bound(
        "PATCH ÷ bare PATCH",
        ratio(perSecond(c.patch), perSecond(patches.get(r)!.bare)),
        "2xx/s of the ceiling app's PATCH (the bare transaction, no validator, in a Next.js route handler) ÷ the bare server's: the most any Next.js PATCH reaches",
      ),
    );
  }
  // The same ratios by the server's CPU per request, which other work on the machine hardly moves.
  const byCpu = (of: Figure, per: Figure) => (of.serverCpuUs && per.serverCpuUs ? ratio(per.serverCpuUs, of.serverCpuUs) : 0);
  for (const r of runtimes) {
    const c = ceilings.get(r)!;
    const floor = floors.get(r)!;
    const bare = patches.get(r)!.bare;
    const cpu = (name: string, value: number): Check => ({
      name: `${r.name} by server CPU: ${name}`,
      value,
      unit: "",
      kind: "info",
      how: "µs of server CPU per request of the divisor ÷ of the figure (the database's CPU not counted): the ratio when the server's CPU is the limit",
    });
    checks.push(
      cpu("ping ÷ floor", byCpu(pings.get(r)!, floor)),
      cpu("read ÷ floor", byCpu(readsNext.get(r)!, floor)),
      cpu("PATCH ÷ bare PATCH", byCpu(patches.get(r)!.next, bare)),
      cpu("PATCH tracing on ÷ off", byCpu(patches.get(r)!.tracedBeside, patches.get(r)!.beside)),
      cpu("ceiling ping ÷ floor", byCpu(c.ping, floor)),
      cpu("ceiling read ÷ floor", byCpu(c.read, floor)),
      cpu("ceiling PATCH ÷ bare PATCH", byCpu(c.patch, bare)),
      cpu("PATCH ÷ ceiling PATCH", byCpu(patches.get(r)!.next, c.patch)),
    );
  }
  const [first, second] = runtimes;
  if (second) {
    const factor = (name: string, of: (r: Runtime) => number, how: string): Check => ({
      name: `${second.name} ÷ ${first.name}: ${name}`,
      value: ratio(of(second), of(first)),
      unit: "",
      kind: "info",
      how,
    });
    checks.push(
      factor(
        "floor",
        (r) => floors.get(r)!.requestsPerSecond,
        "req/s of GET /api/health on the Node 24 server ÷ on the Node 20 server (the same build)",
      ),
      factor("ping", (r) => pings.get(r)!.requestsPerSecond, "req/s of GET /api/v1/ping, Node 24 ÷ Node 20"),
      factor("read", (r) => readsNext.get(r)!.requestsPerSecond, "req/s of the listing read, Node 24 ÷ Node 20"),
      factor("PATCH", (r) => perSecond(patches.get(r)!.next), "2xx/s of PATCH, Node 24 ÷ Node 20"),
    );
  }
  checks.push(
    {
      name: `${first.name} ping ÷ bare ping`,
      value: ratio(pings.get(first)!.requestsPerSecond, pingBare.requestsPerSecond),
      unit: "",
      kind: "info",
      how: "req/s of GET /api/v1/ping ÷ req/s of the bare server doing the same key lookup",
    },
    {
      name: `${first.name} read ÷ bare read`,
      value: ratio(readsNext.get(first)!.requestsPerSecond, readBare.requestsPerSecond),
      unit: "",
      kind: "info",
      how: "req/s of the listing read ÷ req/s of the bare server doing the key lookup and the same read",
    },
  );

  if (bulk) {
    // The bulk listings' count in the figures' names: 1M by default, 10M for the scale check.
    const bulkLabel = `${settings.bulkListings / 1_000_000}M`;
    const pool = new KeyPool([bulk.account]);
    const deepQuery = `?cursor=${encodeSequenceCursor({ after: bulk.deepAfter })}`;
    const { next } = servers.get(first)!;
    await expectFullPages(next.url, bulk.account.keys[0], [
      "/api/v1/account/listings",
      `/api/v1/account/listings${deepQuery}`,
      `/api/v1/listings?city=${encodeURIComponent(searchedCity)}`,
      "/api/v1/listings?city=TARGU%20MURES",
    ]);
    const page1 = await run(
      `GET /api/v1/account/listings, page 1 (${bulkLabel})`,
      next,
      pool,
      keysInTurn(pool.keys, "/api/v1/account/listings"),
      [200],
      { amount: settings.listRequests },
    );
    const deep = await run(
      `GET /api/v1/account/listings, deep cursor (${bulkLabel})`,
      next,
      pool,
      keysInTurn(pool.keys, `/api/v1/account/listings${deepQuery}`),
      [200],
      { amount: settings.listRequests },
    );
    const catalogAt = (city: string) => keysInTurn(pool.keys, `/api/v1/listings?city=${encodeURIComponent(city)}`);
    const asWritten = await run(`GET /api/v1/listings?city=${searchedCity} (${bulkLabel})`, next, pool, catalogAt(searchedCity), [200], {
      amount: settings.listRequests,
    });
    const typedPlain = await run(`GET /api/v1/listings?city=TARGU MURES (${bulkLabel})`, next, pool, catalogAt("TARGU MURES"), [200], {
      amount: settings.listRequests,
    });
    checks.push({
      name: `${first.name} catalog city: without diacritics ÷ as written`,
      value: ratio(typedPlain.requestsPerSecond, asWritten.requestsPerSecond),
      unit: "",
      kind: "min",
      target: 0.8,
      how: `req/s of the catalog searched by city typed in capitals without diacritics ("TARGU MURES") ÷ typed exactly as the listings have it ("${searchedCity}"): ${settings.bulkListings} active listings in ${catalogCities.length} cities, a full page of 50 each (p99: ${typedPlain.p99Ms} ms vs ${asWritten.p99Ms} ms)`,
    });
    checks.push({
      name: `${first.name} list: page 1 ÷ deep page`,
      value: ratio(page1.requestsPerSecond, deep.requestsPerSecond),
      unit: "",
      kind: "max",
      target: 1.5,
      how: `req/s of page 1 ÷ req/s of a page about 100 listings from the end, one account with ${settings.bulkListings} listings (p99: ${page1.p99Ms} ms vs ${deep.p99Ms} ms)`,
    });
  }

  // The parts below start servers of their own. The main part's are done with: stopped now, for their
  // pools (about 10 connections each, 4 or 5 servers per runtime) would leave the next servers too few
  // of PostgreSQL's 100 ("too many clients already").
  await Promise.all([...servers.values()].flatMap((s) => [s.next, s.traced, s.bare, s.ceiling, s.control]).map((server) => server?.stop()));

  let photoDetails: Record<string, unknown> | undefined;
  if (settings.photos) {
    const photos = await runPhotoBench({ ctx, pg, databaseUrl: throwaway.url, log, cleanup, loadAverage: () => os.loadavg()[0] });
    for (const m of photos.measurements) console.log(measurementLine(m));
    measurements.push(...photos.measurements);
    checks.push(...photos.checks);
    photoDetails = photos.details;
  } else log("photo processing figures skipped: BENCH_PHOTOS=0");

  let webhookDetails: Record<string, unknown> | undefined;
  if (settings.webhooks) {
    const webhooks = await runWebhookBench({ ctx, pg, databaseUrl: throwaway.url, log, cleanup, loadAverage: () => os.loadavg()[0] });
    for (const m of webhooks.measurements) console.log(measurementLine(m));
    measurements.push(...webhooks.measurements);
    checks.push(...webhooks.checks);
    webhookDetails = webhooks.details;
  } else log("webhook delivery figures skipped: BENCH_WEBHOOKS=0");

  let longPollDetails: Record<string, unknown> | undefined;
  if (settings.longpoll) {
    const longPoll = await runLongPollBench({ ctx, databaseUrl: throwaway.url, log, cleanup, loadAverage: () => os.loadavg()[0] });
    for (const m of longPoll.measurements) console.log(measurementLine(m));
    measurements.push(...longPoll.measurements);
    checks.push(...longPoll.checks);
    longPollDetails = longPoll.details;
  } else log("long-polling figures skipped: BENCH_LONGPOLL=1 adds them");

  console.log(`\n${summaryTable(measurements, checks)}`);
  console.log(
    `\nceiling: a Next.js route handler doing nothing answers ${Math.round(floors.get(first)!.requestsPerSecond)} req/s on ${first.name} here, so no handler ` +
      `reaches more than ${ratio(floors.get(first)!.requestsPerSecond, pingBare.requestsPerSecond)} × the bare ping or ${ratio(floors.get(first)!.requestsPerSecond, readBare.requestsPerSecond)} × the bare read on this machine.`,
  );
  // The admin URL stays out of the file: it may hold a password.
  writeResults(resultsFile, {
    settings: {
      ...settings,
      adminUrl: undefined,
      webhooks: settings.webhooks ? { ...webhookSettings, ...webhookDetails } : false,
      photos: settings.photos ? { ...photoSettings, ...photoDetails } : false,
      longpoll: settings.longpoll ? { ...longPollSettings, ...longPollDetails } : false,
    },
    runtimes: Object.fromEntries(runtimes.map((r) => [r.name, { version: r.version, node: r.node }])),
    measurements,
    checks,
  });
  console.log(`\nwritten to ${path.relative(process.cwd(), resultsFile)}`);
  const invalid = measurements.filter((m) => !valid(m));
  if (invalid.length)
    console.error(
      `\nINVALID: ${invalid.map((m) => m.name).join("; ")} answered unexpected statuses or errors; the figures above do not measure what they claim.`,
    );
  return invalid.length ? 1 : 0;
}

/**
 * `BENCH_ONLY=<part>`: one part's figures alone (Node 20), on a throwaway database of its own, with
 * the same summary table and results file as a full run.
 */
async function partOnly(
  cleanup: (step: () => Promise<void>) => void,
  part: { name: "webhooks" | "photos" | "longpoll" | "imports"; run: typeof runWebhookBench; settings: object; invalid: string },
): Promise<number> {
  const { throwaway, pg, ctx } = await throwawayDatabase(settings.adminUrl, "bench", log, cleanup);
  const { measurements, checks, details } = await part.run({
    ctx,
    pg,
    databaseUrl: throwaway.url,
    log,
    cleanup,
    loadAverage: () => os.loadavg()[0],
  });
  for (const m of measurements) console.log(measurementLine(m));
  console.log(`\n${summaryTable(measurements, checks)}`);
  const runtime = currentRuntime();
  writeResults(resultsFile, {
    settings: { only: part.name, [part.name]: { ...part.settings, ...details } },
    runtimes: { [runtime.name]: { version: runtime.version, node: runtime.node } },
    measurements,
    checks,
  });
  console.log(`\nwritten to ${path.relative(process.cwd(), resultsFile)}`);
  const invalid = measurements.filter((m) => !valid(m));
  if (invalid.length) console.error(`\nINVALID: ${invalid.map((m) => m.name).join("; ")}: ${part.invalid}.`);
  return invalid.length ? 1 : 0;
}

/** One account with all the bulk listings, and the cursor position of a page near the end of its listing. */
async function seedBulk(ctx: ServiceContext<OperatorActor>, pg: postgres.Sql, template: Awaited<ReturnType<typeof listingTemplate>>) {
  const [account] = await createAccounts(ctx, "bulk", 1);
  log(`seeding ${settings.bulkListings} active listings of one account in ${catalogCities.length} cities (set BENCH_SKIP_1M=1 to skip)`);
  const at = Date.now();
  await seedListings(pg, {
    template,
    owners: [account.id],
    first: settings.listings + 1,
    count: settings.bulkListings,
    // In the catalog, spread over 20 cities (50 000 listings each).
    publishedIn: catalogCities,
    progress: (done) => log(`  ${done} / ${settings.bulkListings} (${Math.round(done / ((Date.now() - at) / 1000))} rows/s)`),
  });
  const [{ mod_seq }] = await pg<{ mod_seq: number }[]>`
    select mod_seq from listings where account_id = ${account.id} order by mod_seq offset 100 limit 1`;
  return { account, deepAfter: Number(mod_seq) };
}

/** Cities of the catalog search figure; the one searched has diacritics, as most Romanian city names do. */
const catalogCities = [
  "București",
  "Cluj-Napoca",
  "Timișoara",
  "Iași",
  "Constanța",
  "Craiova",
  "Brașov",
  "Galați",
  "Ploiești",
  "Oradea",
  "Brăila",
  "Arad",
  "Pitești",
  "Sibiu",
  "Bacău",
  "Târgu Mureș",
  "Baia Mare",
  "Buzău",
  "Botoșani",
  "Satu Mare",
];
const searchedCity = "Târgu Mureș";

/** The pages compared must be full ones (50 listings), or the comparison would compare nothing. */
async function expectFullPages(url: string, key: string, paths: string[]): Promise<void> {
  for (const path of paths) {
    const response = await fetch(`${url}${path}`, { headers: bearer(key) });
    const body = (await response.json()) as { data?: unknown[] };
    if (response.status !== 200 || body.data?.length !== 50)
      throw new Error(`GET ${path}: ${response.status} with ${body.data?.length} items`);
  }
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);
/** 2xx answers per second: a 409 listing_busy is an answer but not a write. */
const perSecond = (f: Figure) => (f.seconds > 0 ? successes(f) / f.seconds : 0);
/** A promise for each of `count` parties that settles once all of them have asked for theirs. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    if (++arrived === count) release();
    return all;
  };
}
const eventCount = async (pg: postgres.Sql) => (await pg<{ n: number }[]>`select count(*)::int as n from events`)[0].n;

await runScript("bench", log, main);
