/**
 * The bulk import benchmark (`BENCH_ONLY=imports`): `BENCH_IMPORT_LINES` (10 000) listings written
 * two ways against the production build (`next start`, embedded job runner) on PostgreSQL, each
 * timed from its first request to the last listing written:
 *
 * - `PUT /listings/ref/{ref}`, one request a listing over `BENCH_CONNECTIONS` (10) connections, with
 *   the keys of 4 accounts in turn (10 keys each: the per-key limit of 300 a minute would refuse
 *   10 000 requests of one key);
 * - one `POST /listings/imports` of the same bodies (other refs, a fresh account), then
 *   `GET /listings/imports/{id}` every 100 ms until `completed`.
 *
 * Both create every listing (new refs). A warm-up of 200 of each first. Target: the import at least
 * 3 × faster. `BENCH_IMPORT_PUTS=0` leaves this comparison out.
 *
 * Then a full import against an inventory (`fullVersusUpsert`): two fresh accounts get the same
 * inventory of `BENCH_IMPORT_LINES` active listings, and each is sent the same file of that many
 * lines (the inventory's refs, each with a new price), one account with `mode=upsert`, the other with
 * `mode=full`, in two rounds whose order is swapped (upsert then full, full then upsert), so neither
 * mode always runs on the warmer server. Target: the full imports at most 1.2 × the upsert ones.
 * docs/benchmarks.md ("Bulk import") explains the figures.
 */
import { performance } from "node:perf_hooks";
import type { Sql } from "postgres";
import type { OperatorActor, ServiceContext } from "@/lib/base/context";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { KeyPool } from "./key-pool";
import type { Cleanup } from "./lifecycle";
import { positiveEnv } from "./lifecycle";
import { measure, processCpuUs, type Figure } from "./load";
import type { Check, Measurement } from "./report";
import { bearer } from "./requests";
import { currentRuntime } from "./runtimes";
import { createAccounts } from "./seed";
import { startNext, type RunningServer } from "./servers";

export const importSettings = {
  lines: positiveEnv("BENCH_IMPORT_LINES", 10_000),
  connections: positiveEnv("BENCH_CONNECTIONS", 10),
  /** `BENCH_IMPORT_PUTS=0`: only the full import against an inventory, without the 10 000 PUTs. */
  puts: process.env.BENCH_IMPORT_PUTS !== "0",
  warmup: 200,
  putAccounts: 4,
  pollMs: 100,
  /** Rounds of one upsert and one full import each, the order swapped every round. */
  syncRounds: 2,
};

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const body = (ref: string, n: number, price = 100_000) => ({ ...exampleApartment, external_ref: ref, price: price + n });

/**
 * Sends `lines` listings as one import (`query`: its mode) and waits for its completion: seconds from
 * the POST to `completed`. `price` is the first line's price, each next line's one more.
 */
async function timedImport(
  url: string,
  key: string,
  refs: string[],
  options: { query?: string; price?: number } = {},
): Promise<{ seconds: number; status: Record<string, number> }> {
  const text = refs.map((ref, n) => JSON.stringify(body(ref, n, options.price))).join("\n") + "\n";
  const started = performance.now();
  const posted = await fetch(`${url}/api/v1/listings/imports${options.query ?? ""}`, {
    method: "POST",
    headers: { ...bearer(key), "content-type": "application/x-ndjson" },
    body: text,
  });
  if (posted.status !== 202) throw new Error(`POST /listings/imports: ${posted.status} ${await posted.text()}`);
  const { id } = ((await posted.json()) as { data: { id: string } }).data;
  for (;;) {
    await sleep(importSettings.pollMs);
    const read = await fetch(`${url}/api/v1/listings/imports/${id}?limit=1`, { headers: bearer(key) });
    const { data } = (await read.json()) as { data: { status: string; lines: Record<string, number> } };
    if (data.status === "completed") return { seconds: (performance.now() - started) / 1000, status: data.lines };
  }
}

export async function runImportBench(input: {
  ctx: ServiceContext<OperatorActor>;
  pg: Sql;
  databaseUrl: string;
  log: (line: string) => void;
  cleanup: Cleanup;
  loadAverage: () => number;
}): Promise<{ measurements: Measurement[]; checks: Check[]; details: Record<string, unknown> }> {
  const { ctx, log, cleanup } = input;
  const settings = importSettings;
  const [warmupAccount] = await createAccounts(ctx, "import-warm", 1);
  const server = await startNext({
    DATABASE_URL: input.databaseUrl,
    APP_ENV: "sandbox",
    JOBS_RUNNER: "on",
    LOG_LEVEL: "error",
    API_LOG: "on",
  });
  cleanup(server.stop);
  log(`imports: warm-up, an import of ${settings.warmup} lines`);
  await timedImport(
    server.url,
    warmupAccount.keys[0],
    Array.from({ length: settings.warmup }, (_, n) => `warm-imp-${n}`),
  );
  const parts = [...(settings.puts ? [await putsVersusImport({ ...input, server })] : []), await fullVersusUpsert({ ...input, server })];
  await server.stop();
  const details = Object.assign({}, ...parts.map((part) => part.details)) as Record<string, unknown>;
  log(`imports: ${JSON.stringify(details)}`);
  return { measurements: parts.flatMap((part) => part.measurements), checks: parts.flatMap((part) => part.checks), details };
}

type PartInput = Parameters<typeof runImportBench>[0] & { server: RunningServer };
type PartResult = { measurements: Measurement[]; checks: Check[]; details: Record<string, unknown> };

/** `BENCH_IMPORT_LINES` new listings by as many PUTs, then by one import: the import's speed-up. */
async function putsVersusImport(input: PartInput): Promise<PartResult> {
  const { ctx, log, server } = input;
  const settings = importSettings;
  log(`imports: ${settings.putAccounts} accounts for the PUTs and 1 for the import, 10 keys each`);
  const putAccounts = await createAccounts(ctx, "import-put", settings.putAccounts);
  const [importAccount] = await createAccounts(ctx, "import", 1);

  const pool = new KeyPool(putAccounts);
  const putPlan = (prefix: string, amount: number) => ({
    url: server.url,
    connections: settings.connections,
    amount,
    duration: 0,
    warmup: 0,
    serverPid: server.pid,
    requestAt: (n: number) => {
      const account = putAccounts[n % putAccounts.length];
      const ref = `${prefix}-${n}`;
      return {
        method: "PUT" as const,
        path: `/api/v1/listings/ref/${ref}`,
        headers: { ...bearer(account.keys[Math.floor(n / putAccounts.length) % account.keys.length]), "content-type": "application/json" },
        body: JSON.stringify(body(ref, n)),
      };
    },
  });

  log(`imports: warm-up, ${settings.warmup} PUTs`);
  await pool.run(settings.warmup, log, () => measure(putPlan("warm-put", settings.warmup)));

  log(`imports: ${settings.lines} PUT /listings/ref/{ref} over ${settings.connections} connections`);
  const loadAverage = input.loadAverage();
  const puts: Figure = await pool.run(settings.lines, log, () => measure(putPlan("put", settings.lines)));

  log(`imports: one POST /listings/imports of ${settings.lines} lines`);
  const cpuBefore = processCpuUs(server.pid);
  const imported = await timedImport(
    server.url,
    importAccount.keys[0],
    Array.from({ length: settings.lines }, (_, n) => `imp-${n}`),
  );
  const importCpuUs = Math.round((processCpuUs(server.pid) - cpuBefore) / settings.lines);

  const importFigure = importFigureOf(imported, importCpuUs, imported.status.created);
  const runtime = currentRuntime().name;
  const measurements: Measurement[] = [
    {
      name: `${runtime}  imports: ${settings.lines} PUT /listings/ref over ${settings.connections} connections`,
      figure: puts,
      expected: [201],
      loadAverage,
    },
    { name: `${runtime}  imports: one import of ${settings.lines} lines (listings/s)`, figure: importFigure, expected: [202], loadAverage },
  ];
  const speedup = puts.seconds > 0 && imported.seconds > 0 ? round(puts.seconds / imported.seconds, 2) : 0;
  const checks: Check[] = [
    {
      name: "imports: all PUTs done ÷ import completed (wall time)",
      value: speedup,
      unit: " ×",
      kind: "min",
      target: 3,
      how: `seconds for ${settings.lines} PUT /listings/ref/{ref} over ${settings.connections} connections (autocannon, each a new listing) divided by seconds from POST /listings/imports of the same ${settings.lines} bodies to GET /listings/imports/{id} answering completed (polled every ${settings.pollMs} ms); next start with the embedded job runner, PostgreSQL`,
    },
  ];
  const details = {
    putSeconds: puts.seconds,
    importSeconds: round(imported.seconds, 2),
    importLines: imported.status,
    importCpuUsPerLine: importCpuUs,
  };
  return { measurements, checks, details };
}

/**
 * The same file of `BENCH_IMPORT_LINES` lines imported with `mode=upsert` into one account and with
 * `mode=full` into another, both holding the same inventory of that many active listings (the file's
 * refs): the seconds of the full imports over those of the upsert ones, in rounds of swapped order.
 */
async function fullVersusUpsert(input: PartInput): Promise<PartResult> {
  const { ctx, pg, log, server } = input;
  const settings = importSettings;
  const refs = Array.from({ length: settings.lines }, (_, n) => `sync-${n}`);
  const [upsertAccount, fullAccount] = await createAccounts(ctx, "sync", 2);
  log(`imports: an inventory of ${settings.lines} active listings in each of 2 accounts`);
  for (const account of [upsertAccount, fullAccount]) await timedImport(server.url, account.keys[0], refs);
  // Made active at once, as moderation would: a full import withdraws and compares active listings.
  await pg`update listings set status = 'active', published_at = now() where account_id in ${pg([upsertAccount.id, fullAccount.id])}`;

  const loadAverage = input.loadAverage();
  const seconds = { upsert: 0, full: 0 };
  const cpuUs = { upsert: 0, full: 0 };
  const outcomes: Record<string, Record<string, number>[]> = { upsert: [], full: [] };
  for (let round = 0; round < settings.syncRounds; round++) {
    const order = round % 2 === 0 ? (["upsert", "full"] as const) : (["full", "upsert"] as const);
    for (const mode of order) {
      const account = mode === "full" ? fullAccount : upsertAccount;
      log(`imports: round ${round + 1}, an import of ${settings.lines} lines with mode=${mode}`);
      const cpuBefore = processCpuUs(server.pid);
      // Every round sends new prices: each line is an edit of its listing, in both modes.
      const timed = await timedImport(server.url, account.keys[0], refs, { query: `?mode=${mode}`, price: 200_000 + round * 50_000 });
      cpuUs[mode] += processCpuUs(server.pid) - cpuBefore;
      seconds[mode] += timed.seconds;
      outcomes[mode].push(timed.status);
    }
  }
  const lines = settings.lines * settings.syncRounds;
  const figureOf = (mode: "upsert" | "full") => {
    const applied = outcomes[mode].reduce((sum, status) => sum + status.updated, 0);
    const withdrawn = outcomes[mode].reduce((sum, status) => sum + (status.withdrawn ?? 0), 0);
    return importFigureOf(
      { seconds: seconds[mode], status: {} },
      Math.round(cpuUs[mode] / lines),
      withdrawn === 0 ? applied : 0,
      lines,
      settings.syncRounds,
    );
  };
  const runtime = currentRuntime().name;
  const name = (mode: string) =>
    `${runtime}  imports: ${settings.syncRounds} × ${settings.lines} lines, mode=${mode}, against an inventory of ${settings.lines} (lines/s)`;
  const measurements: Measurement[] = [
    { name: name("upsert"), figure: figureOf("upsert"), expected: [202], loadAverage },
    { name: name("full"), figure: figureOf("full"), expected: [202], loadAverage },
  ];
  const ratio = seconds.upsert > 0 ? round(seconds.full / seconds.upsert, 2) : 0;
  const checks: Check[] = [
    {
      name: "imports: full import ÷ the same import in upsert mode (wall time)",
      value: ratio,
      unit: " ×",
      kind: "max",
      target: 1.2,
      how: `seconds from POST /listings/imports?mode=full to completed divided by the same for mode=upsert, summed over ${settings.syncRounds} rounds of the same ${settings.lines} lines (new prices each round) sent to two accounts each holding the same ${settings.lines} active listings, the order of the two swapped every round; nothing to withdraw, so the full import pays for its inventory reads and its cap; next start with the embedded job runner, PostgreSQL`,
    },
  ];
  const details = {
    syncUpsertSeconds: round(seconds.upsert, 2),
    syncFullSeconds: round(seconds.full, 2),
    syncUpsertLines: outcomes.upsert,
    syncFullLines: outcomes.full,
  };
  return { measurements, checks, details };
}

/**
 * One or more timed imports as a figure: lines a second over their wall time; `applied` lines
 * ended as expected, the others count as errors (a run with any is invalid).
 */
function importFigureOf(
  timed: { seconds: number; status: Record<string, number> },
  serverCpuUs: number,
  applied: number,
  lines = importSettings.lines,
  requests = 1,
): Figure {
  return {
    requestsPerSecond: round(lines / timed.seconds),
    p50Ms: 0,
    p99Ms: 0,
    meanMs: 0,
    requests: lines,
    seconds: round(timed.seconds, 2),
    statuses: { "202": requests },
    non2xx: 0,
    errors: lines - applied,
    serverCpuUs,
  };
}
