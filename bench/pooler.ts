/**
 * The transaction-mode pooler benchmark (`BENCH_ONLY=pooler`): the production build (`next start`) on
 * Node 24, on one throwaway PostgreSQL database, in three configurations, each a server of its own:
 *
 * - (a) `direct`: `DATABASE_URL` is PostgreSQL itself, statements prepared by name (the default);
 * - (b) `PgBouncer`: `DATABASE_URL` is a PgBouncer in transaction mode in front of it
 *   (`db/pgbouncer.ts`), `DATABASE_URL_UNPOOLED` PostgreSQL itself, so statements go unnamed;
 * - (c) `unnamed, direct`: `DATABASE_URL` is PostgreSQL itself with `DATABASE_POOLING=transaction` and
 *   `DATABASE_URL_UNPOOLED` the same address written otherwise: unnamed statements without the hop.
 *
 * (c) ÷ (a) is what giving up named statements costs, (b) ÷ (c) what the pooler's hop costs. Each
 * server warms up and settles as the main bench's do, then the ping, the listing read and the PATCH
 * are measured in turns (`inTurns`), with the PostgreSQL CPU of the bench database's sessions and,
 * for (b), PgBouncer's. docs/benchmarks.md ("Behind a transaction-mode pooler") explains the figures.
 */
import type { Sql } from "postgres";
import { startPgBouncer } from "@/db/pgbouncer";
import type { OperatorActor, ServiceContext } from "@/lib/base/context";
import { KeyPool } from "./key-pool";
import type { Cleanup } from "./lifecycle";
import type { Figure } from "./load";
import { successes, type Check, type Measurement } from "./report";
import { cycle, keysInTurn, patchRequestAt, readRequests } from "./requests";
import { currentRuntime, node24, type Runtime } from "./runtimes";
import { seedFigureData } from "./seed";
import { startNext, type RunningServer } from "./servers";
import { loadRuns, type LoadSettings, type Side } from "./turns";

type Configuration = "direct" | "pooled" | "unnamed";
const labels: Record<Configuration, string> = {
  direct: "(a) direct, named statements",
  pooled: "(b) PgBouncer, transaction mode",
  unnamed: "(c) direct, unnamed statements",
};

export async function runPoolerBench(input: {
  ctx: ServiceContext<OperatorActor>;
  pg: Sql;
  databaseUrl: string;
  log: (line: string) => void;
  cleanup: Cleanup;
  loadAverage: () => number;
  settings: LoadSettings & { settle: number; listings: number };
}): Promise<{ measurements: Measurement[]; checks: Check[]; details: Record<string, unknown>; runtime: Runtime }> {
  const { ctx, pg, databaseUrl, log, cleanup, settings } = input;
  const loadAverages = [input.loadAverage()];
  log("finding Node 24 (npx -y node@24)…");
  const found = node24();
  const runtime = "unavailable" in found ? currentRuntime() : found;
  if ("unavailable" in found) log(`Node 24 unavailable (${found.unavailable}): measuring on ${runtime.name} (${runtime.version}) instead`);

  const data = await seedFigureData(ctx, pg, settings, log);
  // Vacuumed as well as analysed, as in the main bench: autovacuum would take up the fresh rows during the first figures.
  await pg`vacuum analyze`;

  const pooler = await startPgBouncer(databaseUrl);
  cleanup(pooler.stop);
  const product = { APP_ENV: "sandbox", JOBS_RUNNER: "off", LOG_LEVEL: "error", API_LOG: "on" };
  // A second spelling of the direct address: the app takes two equal addresses for one, not for a pooler and its database.
  const directAgain = new URL(databaseUrl);
  directAgain.searchParams.set("application_name", "direct");
  const environments: Record<Configuration, Record<string, string>> = {
    direct: { ...product, DATABASE_URL: databaseUrl },
    pooled: { ...product, DATABASE_URL: pooler.pooled(databaseUrl), DATABASE_URL_UNPOOLED: databaseUrl },
    unnamed: { ...product, DATABASE_URL: databaseUrl, DATABASE_POOLING: "transaction", DATABASE_URL_UNPOOLED: directAgain.toString() },
  };
  const configurations = Object.keys(labels) as Configuration[];
  const servers = {} as Record<Configuration, RunningServer>;
  for (const configuration of configurations) {
    servers[configuration] = await startNext(environments[configuration], { runtime });
    cleanup(servers[configuration].stop);
    log(`${labels[configuration]}: ${runtime.name} (${runtime.version}) Next.js on ${servers[configuration].url}`);
  }

  const databaseName = new URL(databaseUrl).pathname.slice(1);
  // PostgreSQL's CPU counts the sessions on the bench's database only: other databases' work on a shared server stays out.
  const { measurements, load, inTurns, settle } = loadRuns(settings, log, (server) => ({
    databaseName,
    ...(server === servers.pooled ? { poolerPid: pooler.pid } : {}),
  }));
  // Each server limits in its own memory, so each gets pools of its own over the same keys.
  const pools = Object.fromEntries(
    configurations.map((c) => [
      c,
      { ping: new KeyPool(data.pingAccounts), read: new KeyPool(data.readAccounts), patch: new KeyPool(data.patchAccounts) },
    ]),
  ) as Record<Configuration, Record<"ping" | "read" | "patch", KeyPool>>;
  const pingAt = keysInTurn(pools.direct.ping.keys, "/api/v1/ping");
  const reads = cycle(readRequests(data.readAccounts, data.readListings));
  // Every PATCH run writes prices of its own, so that no request of a later run finds its price already stored.
  let firstPrice = 200_000;
  const patchAt = () => patchRequestAt(data.patchAccounts, data.patchListings, (firstPrice += 10_000));

  // Equal pasts: each server serves the health check as long as a figure, then each figure's requests (main bench: `settle`).
  const health = () => ({ method: "GET" as const, path: "/api/health", headers: {} });
  for (const c of configurations) await load(`GET /api/health (${labels[c]}: warm-up)`, servers[c], undefined, health, [200]);
  for (const c of configurations)
    await settle(labels[c], servers[c], pools[c], { ping: pingAt, read: reads, patch: patchAt }, settings.settle);
  loadAverages.push(input.loadAverage());

  const figures = {} as Record<"ping" | "read" | "PATCH", Record<Configuration, Figure>>;
  const measured: [figure: keyof typeof figures, path: string, pool: "ping" | "read" | "patch", requests: Side[3], expected: number[]][] = [
    ["ping", "GET /api/v1/ping", "ping", () => pingAt, [200]],
    ["read", "GET /api/v1/account/listings/{code}", "read", () => reads, [200]],
    ["PATCH", "PATCH /api/v1/listings/{code}", "patch", patchAt, [200, 409]],
  ];
  for (const [figure, path, pool, requests, expected] of measured) {
    const [direct, pooled, unnamed] = await inTurns(
      ...configurations.map((c): Side => [`${path} ${labels[c]}`, servers[c], pools[c][pool], requests, expected]),
    );
    figures[figure] = { direct, pooled, unnamed };
    loadAverages.push(input.loadAverage());
  }
  // CPU is counted in ticks of 10 ms: a short run's figure may round to 0, all three together may not.
  if (!Object.values(figures).some((f) => f.pooled.poolerCpuUs))
    throw new Error("PgBouncer spent no CPU while the pooled server was measured: its requests did not go through the pooler");

  const checks: Check[] = [];
  const pairs: [Configuration, Configuration, string][] = [
    ["pooled", "direct", "(b) ÷ (a)"],
    ["unnamed", "direct", "(c) ÷ (a)"],
    ["pooled", "unnamed", "(b) ÷ (c)"],
  ];
  const throughput = (name: keyof typeof figures, f: Figure) =>
    name === "PATCH" ? (f.seconds > 0 ? successes(f) / f.seconds : 0) : f.requestsPerSecond;
  for (const name of ["ping", "read", "PATCH"] as const)
    for (const [of, per, label] of pairs)
      checks.push({
        name: `${runtime.name} ${name} ${label}`,
        value: ratio(throughput(name, figures[name][of]), throughput(name, figures[name][per])),
        unit: "",
        kind: "info",
        how: "req/s (PATCH: 2xx/s) of the one configuration ÷ of the other, each side's turns merged; (a) direct, named statements; (b) through PgBouncer in transaction mode; (c) direct, unnamed statements",
      });
  for (const name of ["ping", "read", "PATCH"] as const)
    for (const [of, per, label] of pairs)
      checks.push({
        name: `${runtime.name} ${name} by CPU ${label}`,
        value: ratio(cpuPerRequest(figures[name][per]), cpuPerRequest(figures[name][of])),
        unit: "",
        kind: "info",
        how: "µs of CPU per request of the divisor ÷ of the figure, counting the server's process, PostgreSQL's sessions on the bench's database and PgBouncer's process: the ratio when the machine's CPU is the limit",
      });
  loadAverages.push(input.loadAverage());
  const details = {
    runtime: { name: runtime.name, version: runtime.version },
    configurations: labels,
    listings: settings.listings,
    pgbouncer: "Debian's pgbouncer, pool_mode = transaction, default_pool_size = 20 (db/pgbouncer.ts)",
    loadAverages: loadAverages.map((l) => Math.round(l * 10) / 10),
  };
  log(`load average (1 min) at the start, after settling and after each figure: ${details.loadAverages.join(", ")}`);
  return { measurements, checks, details, runtime };
}

/** CPU per answered request of the server, PostgreSQL's sessions and the pooler together, in µs. */
const cpuPerRequest = (f: Figure) => (f.serverCpuUs ?? 0) + (f.databaseCpuUs ?? 0) + (f.poolerCpuUs ?? 0);
const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);
