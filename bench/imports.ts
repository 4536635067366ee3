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
 * 3 × faster. docs/benchmarks.md ("Bulk import") explains the figures.
 */
import { performance } from "node:perf_hooks";
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
import { startNext } from "./servers";

export const importSettings = {
  lines: positiveEnv("BENCH_IMPORT_LINES", 10_000),
  connections: positiveEnv("BENCH_CONNECTIONS", 10),
  warmup: 200,
  putAccounts: 4,
  pollMs: 100,
};

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const body = (ref: string, n: number) => ({ ...exampleApartment, external_ref: ref, price: 100_000 + n });

/** Sends `lines` listings as one import and waits for its completion: seconds from the POST to `completed`. */
async function timedImport(url: string, key: string, refs: string[]): Promise<{ seconds: number; status: Record<string, number> }> {
  const text = refs.map((ref, n) => JSON.stringify(body(ref, n))).join("\n") + "\n";
  const started = performance.now();
  const posted = await fetch(`${url}/api/v1/listings/imports`, {
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
  databaseUrl: string;
  log: (line: string) => void;
  cleanup: Cleanup;
  loadAverage: () => number;
}): Promise<{ measurements: Measurement[]; checks: Check[]; details: Record<string, unknown> }> {
  const { ctx, log, cleanup } = input;
  const settings = importSettings;
  log(`imports: ${settings.putAccounts} accounts for the PUTs and 2 for the imports, 10 keys each`);
  const putAccounts = await createAccounts(ctx, "import-put", settings.putAccounts);
  const [warmupAccount, importAccount] = await createAccounts(ctx, "import", 2);
  const server = await startNext({
    DATABASE_URL: input.databaseUrl,
    APP_ENV: "sandbox",
    JOBS_RUNNER: "on",
    LOG_LEVEL: "error",
    API_LOG: "on",
  });
  cleanup(server.stop);

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

  log(`imports: warm-up, ${settings.warmup} PUTs and an import of ${settings.warmup} lines`);
  await pool.run(settings.warmup, log, () => measure(putPlan("warm-put", settings.warmup)));
  await timedImport(
    server.url,
    warmupAccount.keys[0],
    Array.from({ length: settings.warmup }, (_, n) => `warm-imp-${n}`),
  );

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
  await server.stop();

  const importFigure: Figure = {
    requestsPerSecond: round(settings.lines / imported.seconds),
    p50Ms: 0,
    p99Ms: 0,
    meanMs: 0,
    requests: settings.lines,
    seconds: round(imported.seconds, 2),
    statuses: { "202": 1 },
    non2xx: 0,
    errors: imported.status.created === settings.lines ? 0 : settings.lines - imported.status.created,
    serverCpuUs: importCpuUs,
  };
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
  log(`imports: ${JSON.stringify(details)}`);
  return { measurements, checks, details };
}
