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
import type { Figure } from "./load";
import { bearer, cycle, keysInTurn, patchRequestAt, readRequests } from "./requests";
import { measurementLine, successes, summaryTable, valid, writeResults, type Check } from "./report";
import { createAccounts, listingTemplate, seedFigureData, seedListings } from "./seed";
import { currentRuntime, node24, type Runtime } from "./runtimes";
import { startOtlpSink } from "./otlp-sink";
import { ensureBuild, ensureCeilingBuild, startBare, startCeiling, startNext, type RunningServer } from "./servers";
import { loadRuns, type SettlingPools, type Side } from "./turns";
import { photoSettings, runPhotoBench } from "./photos";
import { runWebhookBench, webhookSettings } from "./webhooks";
import { importSettings, runImportBench } from "./imports";
import { longPollSettings, runLongPollBench } from "./longpoll";
import { runPoolerBench } from "./pooler";

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
   * processing figures; `longpoll`: only the long-polling figures; `imports`: only the bulk import figures;
   * `pooler`: the ping, read and PATCH on Node 24 directly, through PgBouncer and with unnamed statements.
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
  if (settings.only !== undefined && !["webhooks", "photos", "longpoll", "imports", "pooler"].includes(settings.only))
    throw new Error(`BENCH_ONLY=${settings.only}: "webhooks", "photos", "longpoll", "imports" and "pooler" are known`);
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
  if (settings.only === "pooler") {
    await ensureBuild(log);
    const { duration, turns, warmup, settle, connections, maxRate, listings, listWarmup } = settings;
    const poolerSettings = { duration, turns, warmup, settle, connections, maxRate, listings, listWarmup };
    return partOnly(cleanup, {
      name: "pooler",
      run: (input) => runPoolerBench({ ...input, settings: poolerSettings }),
      settings: poolerSettings,
      invalid: "unexpected statuses or errors",
    });
  }
  await ensureBuild(log);
  await ensureCeilingBuild(log);
  const { throwaway, pg, ctx } = await throwawayDatabase(settings.adminUrl, "bench", log, cleanup);

  const { pingAccounts, readAccounts, patchAccounts, template, readListings, patchListings } = await seedFigureData(ctx, pg, settings, log);

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

  const { measurements, load, run, inTurns, sideBySide, settle } = loadRuns(settings, log);

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
  // Then every server serves each figure's own requests for the same time, unmeasured (`settle`).
  for (const r of runtimes) {
    const { next, traced, ceiling, control } = servers.get(r)!;
    const p = pools.get(r)!;
    const settling: [string, RunningServer, SettlingPools][] = [
      ["Next.js", next, { ping: p.ping, read: p.read, patch: p.patch }],
      ["Next.js, tracing on", traced, { ping: p.tracedPing, read: p.tracedRead, patch: p.tracedPatch }],
      ...(control ? [["Next.js twin", control, p.twin] as [string, RunningServer, SettlingPools]] : []),
      ["ceiling", ceiling, { ping: undefined, read: undefined, patch: undefined }],
    ];
    for (const [name, server, pool] of settling)
      await settle(name, server, pool, { ping: pingAt, read: reads, patch: patchAt }, settings.settle);
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

/** A part's run; a part that measures on another runtime than the bench's own (Node 20) says which. */
type PartRun = (
  input: Parameters<typeof runWebhookBench>[0],
) => Promise<Awaited<ReturnType<typeof runWebhookBench>> & { runtime?: Runtime }>;

/**
 * `BENCH_ONLY=<part>`: one part's figures alone (Node 20, or the runtime the part reports), on a
 * throwaway database of its own, with the same summary table and results file as a full run.
 */
async function partOnly(
  cleanup: (step: () => Promise<void>) => void,
  part: { name: "webhooks" | "photos" | "longpoll" | "imports" | "pooler"; run: PartRun; settings: object; invalid: string },
): Promise<number> {
  const { throwaway, pg, ctx } = await throwawayDatabase(settings.adminUrl, "bench", log, cleanup);
  const {
    measurements,
    checks,
    details,
    runtime = currentRuntime(),
  } = await part.run({
    ctx,
    pg,
    databaseUrl: throwaway.url,
    log,
    cleanup,
    loadAverage: () => os.loadavg()[0],
  });
  for (const m of measurements) console.log(measurementLine(m));
  console.log(`\n${summaryTable(measurements, checks)}`);
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
const eventCount = async (pg: postgres.Sql) => (await pg<{ n: number }[]>`select count(*)::int as n from events`)[0].n;

await runScript("bench", log, main);
