/**
 * `npm run bench`: the production build against bare `node:http` + postgres.js servers doing the
 * same database work, on a throwaway PostgreSQL database. Progress goes to stderr; figures, the
 * summary table and `.data/bench/results.json` are the output. Exits 1 when a measurement is
 * invalid (an unexpected status, connection errors) or the run fails; a missed target is reported
 * as MISS. The README's "Benchmarks" section explains the figures and the knobs.
 */
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { openDatabase, type Database } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { createThrowawayDatabase } from "@/db/throwaway";
import type { ServiceContext } from "@/lib/context";
import { encodeCursor } from "@/lib/listings/pagination";
import { KeyPool } from "./key-pool";
import { measure, plannedRequests, type LoadPlan } from "./load";
import { bearer, cycle, keysInTurn, patchRequestAt, readRequests } from "./requests";
import { measurementLine, successes, summaryTable, valid, writeResults, type Check, type Measurement } from "./report";
import { createAccounts, listingsOf, listingTemplate, seedListings } from "./seed";
import { ensureBuild, startBare, startNext, type RunningServer } from "./servers";

const number = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

const settings = {
  adminUrl: process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  duration: number("BENCH_DURATION", 10),
  warmup: number("BENCH_WARMUP", 3),
  connections: number("BENCH_CONNECTIONS", 10),
  maxRate: number("BENCH_MAX_RATE", 4000),
  listings: 10_000,
  bulkListings: number("BENCH_BULK_LISTINGS", 1_000_000),
  listRequests: number("BENCH_LIST_REQUESTS", 2000),
  listWarmup: 200,
  skipBulk: process.env.BENCH_SKIP_1M === "1",
};
const resultsFile = path.resolve(".data/bench/results.json");
const started = Date.now();
const log = (line: string) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

// The bench process creates keys with the product's services: sandbox keys, as the server expects.
process.env.APP_ENV = "sandbox";

async function main(cleanup: (step: () => Promise<void>) => void): Promise<number> {
  await ensureBuild(log);
  const throwaway = await createThrowawayDatabase(settings.adminUrl, "bench");
  log(`created database ${throwaway.name}`);
  cleanup(async () => {
    await throwaway.drop();
    log(`dropped database ${throwaway.name}`);
  });
  const database: Database = await openDatabase({ url: throwaway.url });
  cleanup(() => database.close());
  const pg = postgres(throwaway.url, { max: 2, onnotice: () => {} });
  cleanup(() => pg.end({ timeout: 5 }));
  await migrateDatabase(database);
  const ctx: ServiceContext = { database, actor: { kind: "operator" }, now: new Date() };

  const timed = { duration: settings.duration, warmup: settings.warmup };
  const accountsPerPool = Math.ceil(KeyPool.keysFor(plannedRequests(timed, settings.maxRate)) / 10);
  log(`creating 3 × ${accountsPerPool} accounts with 10 keys each (≤ ${settings.maxRate} req/s for ${settings.duration + settings.warmup} s without a 429)`);
  const [pingAccounts, readAccounts, patchAccounts] = [
    await createAccounts(ctx, "ping", accountsPerPool),
    await createAccounts(ctx, "read", accountsPerPool),
    await createAccounts(ctx, "patch", accountsPerPool),
  ];
  const template = await listingTemplate(ctx);
  log(`seeding ${settings.listings} listings`);
  await seedListings(pg, { template, owners: [...readAccounts, ...patchAccounts].map((a) => a.id), first: 1, count: settings.listings });
  const readListings = await listingsOf(pg, readAccounts.map((a) => a.id));
  const patchListings = await listingsOf(pg, patchAccounts.map((a) => a.id));

  const bulk = settings.skipBulk ? undefined : await seedBulk(ctx, pg, template);
  await pg`analyze listings`;

  const next = await startNext({ DATABASE_URL: throwaway.url, APP_ENV: "sandbox", JOBS_RUNNER: "off", LOG_LEVEL: "error", API_LOG: "on" });
  cleanup(next.stop);
  const bare = await startBare(throwaway.url);
  cleanup(bare.stop);
  log(`Next.js on ${next.url}, bare server on ${bare.url}`);

  const measurements: Measurement[] = [];
  const run = async (name: string, server: RunningServer, pool: KeyPool | undefined, requestAt: LoadPlan["requestAt"], expected: number[], amount?: number) => {
    const plan: LoadPlan = { url: server.url, requestAt, connections: settings.connections, ...(amount ? { duration: 0, amount, warmup: settings.listWarmup } : timed) };
    log(`measuring ${name}`);
    const loadAverage = os.loadavg()[0];
    const figure = pool ? await pool.run(plannedRequests(plan, settings.maxRate), log, () => measure(plan)) : await measure(plan);
    const measurement = { name, figure, expected, loadAverage };
    measurements.push(measurement);
    console.log(measurementLine(measurement));
    // Lets the API log's buffered writes and the last connections settle before the next run.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return figure;
  };

  const pingPool = new KeyPool(pingAccounts);
  const pingAt = keysInTurn(pingPool.keys, "/api/v1/ping");
  const reads = cycle(readRequests(readAccounts, readListings));

  // The framework's own cost per request: a route handler with no database and no pipeline.
  const floor = await run("GET /api/health (Next.js, no database: the framework's floor)", next, undefined, () => ({ method: "GET", path: "/api/health", headers: {} }), [200]);
  const pingNext = await run("GET /api/v1/ping (Next.js)", next, pingPool, pingAt, [200]);
  const pingBare = await run("GET /api/v1/ping (bare node:http)", bare, undefined, pingAt, [200]);
  const readNext = await run("GET /api/v1/account/listings/{code} (Next.js)", next, new KeyPool(readAccounts), reads, [200]);
  const readBare = await run("GET /api/v1/account/listings/{code} (bare)", bare, undefined, reads, [200]);
  const patch = await run("PATCH /api/v1/listings/{code} (Next.js)", next, new KeyPool(patchAccounts), patchRequestAt(patchAccounts, patchListings), [200, 409]);
  const [{ writes }] = await pg<{ writes: number }[]>`select coalesce(sum(version - 1), 0)::int as writes from listings where account_id = any(${patchAccounts.map((a) => a.id)})`;
  log(`PATCH: ${patch.statuses["200"] ?? 0} × 200, ${patch.statuses["409"] ?? 0} × 409 listing_busy; ${writes} versions written in the database (warm-up included)`);

  const checks: Check[] = [
    {
      name: "ping: Next.js ÷ bare",
      value: ratio(pingNext.requestsPerSecond, pingBare.requestsPerSecond),
      unit: "",
      kind: "min",
      target: 0.5,
      how: "req/s of authenticated GET /api/v1/ping on the production server ÷ req/s of the bare server doing the same key lookup",
    },
    {
      name: "read: Next.js ÷ bare",
      value: ratio(readNext.requestsPerSecond, readBare.requestsPerSecond),
      unit: "",
      kind: "min",
      target: 0.5,
      how: `req/s of GET /api/v1/account/listings/{code} over ${readListings.length} listings ÷ req/s of the bare server doing the key lookup and the same read`,
    },
    {
      name: "PATCH: 2xx answers per second",
      value: Math.round(successes(patch) / patch.seconds),
      unit: "/s",
      kind: "min",
      target: 300,
      how: `PATCH /api/v1/listings/{code} with a new price, ${patchListings.length} pending listings in rotation; 409 listing_busy answers are counted apart and not in this figure`,
    },
  ];

  if (bulk) {
    const pool = new KeyPool([bulk.account]);
    const deepQuery = `?cursor=${encodeCursor({ after: bulk.deepAfter })}`;
    await expectFullPages(next.url, bulk.account.keys[0], ["", deepQuery]);
    const first = await run("GET /api/v1/account/listings, page 1 (1M)", next, pool, keysInTurn(pool.keys, "/api/v1/account/listings"), [200], settings.listRequests);
    const deep = await run("GET /api/v1/account/listings, deep cursor (1M)", next, pool, keysInTurn(pool.keys, `/api/v1/account/listings${deepQuery}`), [200], settings.listRequests);
    checks.push({
      name: "list: page 1 ÷ deep page",
      value: ratio(first.requestsPerSecond, deep.requestsPerSecond),
      unit: "",
      kind: "max",
      target: 1.5,
      how: `req/s of page 1 ÷ req/s of a page about 100 listings from the end, one account with ${settings.bulkListings} listings (p99: ${first.p99Ms} ms vs ${deep.p99Ms} ms)`,
    });
  }

  console.log(`\n${summaryTable(measurements, checks)}`);
  console.log(
    `\nceiling: a Next.js route handler doing nothing answers ${Math.round(floor.requestsPerSecond)} req/s here, so no handler can reach ` +
      `a ping ratio above ${ratio(floor.requestsPerSecond, pingBare.requestsPerSecond)} or a read ratio above ${ratio(floor.requestsPerSecond, readBare.requestsPerSecond)} on this machine.`,
  );
  // The admin URL stays out of the file: it may hold a password.
  writeResults(resultsFile, { settings: { ...settings, adminUrl: undefined }, measurements, checks });
  console.log(`\nwritten to ${path.relative(process.cwd(), resultsFile)}`);
  const invalid = measurements.filter((m) => !valid(m));
  if (invalid.length) console.error(`\nINVALID: ${invalid.map((m) => m.name).join("; ")} answered unexpected statuses or errors; the figures above do not measure what they claim.`);
  return invalid.length ? 1 : 0;
}

/** One account with all the bulk listings, and the cursor position of a page near the end of its listing. */
async function seedBulk(ctx: ServiceContext, pg: postgres.Sql, template: Awaited<ReturnType<typeof listingTemplate>>) {
  const [account] = await createAccounts(ctx, "bulk", 1);
  log(`seeding ${settings.bulkListings} listings of one account (set BENCH_SKIP_1M=1 to skip)`);
  const at = Date.now();
  await seedListings(pg, {
    template,
    owners: [account.id],
    first: settings.listings + 1,
    count: settings.bulkListings,
    progress: (done) => log(`  ${done} / ${settings.bulkListings} (${Math.round(done / ((Date.now() - at) / 1000))} rows/s)`),
  });
  const [{ mod_seq }] = await pg<{ mod_seq: number }[]>`
    select mod_seq from listings where account_id = ${account.id} order by mod_seq offset 100 limit 1`;
  return { account, deepAfter: Number(mod_seq) };
}

/** Both pages must be full ones (50 listings), or the comparison would compare nothing. */
async function expectFullPages(url: string, key: string, queries: string[]): Promise<void> {
  for (const query of queries) {
    const response = await fetch(`${url}/api/v1/account/listings${query}`, { headers: bearer(key) });
    const body = (await response.json()) as { data?: unknown[] };
    if (response.status !== 200 || body.data?.length !== 50) throw new Error(`GET /account/listings${query}: ${response.status} with ${body.data?.length} items`);
  }
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);

const steps: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | undefined;
/** Stops the servers and drops the database, in reverse order of creation, once. */
const cleanUp = () =>
  (cleaning ??= (async () => {
    for (const step of steps.reverse()) await step().catch((error: Error) => log(`clean-up: ${error.message}`));
  })());

for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void cleanUp().then(() => process.exit(130)));

const code = await main((step) => steps.push(step)).catch((error: Error) => {
  console.error(`bench failed: ${error.stack ?? error.message}`);
  return 1;
});
await cleanUp();
process.exit(code);
