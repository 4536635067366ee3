/**
 * `npm run bench:retention`: the retention of a big API log, the old way against the partitioned one,
 * on a throwaway PostgreSQL database (`PG_ADMIN_URL`). It fills `BENCH_RETENTION_ROWS` API log rows
 * (10 million by default) over 400 days into the partitioned `api_log` and into an unpartitioned
 * copy, then times, on the copy, the former row-by-row job (batches of 1000, as
 * lib/adapters/worker/retention.ts did for api_log before migration 0017) and, on `api_log`, today's
 * job step (lib/adapters/worker/partitions.ts), with each table's size before and after; last, the
 * reads of the API log page and of `GET /events` on both layouts (median of `BENCH_RETENTION_READS`).
 * Figures go to stdout and `.data/bench/retention.json`; progress to stderr.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Sql } from "postgres";
import { applyPartitionRetention, ensurePartitions, partitionedTables } from "@/lib/adapters/worker/partitions";
import { positiveEnv, throwawayDatabase, type Cleanup } from "./lifecycle";

const settings = {
  adminUrl: process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  rows: positiveEnv("BENCH_RETENTION_ROWS", 10_000_000),
  reads: positiveEnv("BENCH_RETENTION_READS", 200),
};
const spanDays = 400;
const accounts = 100;
const day = 86_400_000;
const resultsFile = path.resolve(".data/bench/retention.json");
const started = performance.now();
const log = (line: string) =>
  process.stderr.write(`[retention ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

// The former job's statements (retention.ts before the API log was partitioned): one batch each.
const oldRowsBatch = (cutoff: string) => `delete from api_log_rowwise where id in
  (select id from api_log_rowwise where created_at < '${cutoff}' limit 1000) returning id`;
const oldBodiesBatch = (cutoff: string) => `update api_log_rowwise set request_body = null, response_body = null where id in
  (select id from api_log_rowwise where created_at < '${cutoff}' and (request_body is not null or response_body is not null) limit 1000) returning id`;
// The former job stopped a rule after 200 batches, the next hourly run going on.
const oldMaxBatches = 200;

async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; result: T }> {
  const start = performance.now();
  const result = await work();
  return { seconds: (performance.now() - start) / 1000, result };
}

const sizeOf = async (pg: Sql, table: string) =>
  Number(
    (
      await pg.unsafe(
        `select coalesce(sum(pg_total_relation_size(relid)), pg_total_relation_size('${table}'))::bigint as bytes from pg_partition_tree('${table}')`,
      )
    )[0].bytes,
  );
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Runs the former job's statement until no row is left (or `maxBatches`), as its hourly runs would. */
async function oldRule(pg: Sql, statement: string, maxBatches = Infinity): Promise<number> {
  let affected = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const count = (await pg.unsafe(statement)).length;
    affected += count;
    if (count < 1000) break;
  }
  return affected;
}

async function fill(pg: Sql, now: Date): Promise<void> {
  const rows = settings.rows;
  log(`filling api_log and api_log_rowwise with ${rows} rows each over ${spanDays} days`);
  const values = `select 'req_' || n, 'key_' || (n % 300), 'acct_' || (n % ${accounts}), case when n % 5 = 0 then 'PATCH' else 'GET' end,
      '/api/v1/listings/lst_' || (n % 100000), null, case when n % 50 = 0 then 404 else 200 end, 5 + n % 40, '10.1.' || (n % 250) || '.7',
      case when n % 5 = 0 then jsonb_build_object('price', n % 900000, 'title', 'Apartament 2 camere ' || n) end,
      jsonb_build_object('data', jsonb_build_object('code', 'lst_' || (n % 100000), 'status', 'published')),
      '${now.toISOString()}'::timestamptz - (n::double precision / ${rows} * ${spanDays}) * interval '1 day'
    from generate_series(1, ${rows}) as n`;
  const columns = "request_id, key_id, account_id, method, path, query, status, duration_ms, ip, request_body, response_body, created_at";
  await pg.unsafe(`insert into api_log (${columns}) ${values}`);
  await pg.unsafe(`create table api_log_rowwise (like api_log including defaults)`);
  await pg.unsafe(`insert into api_log_rowwise (id, ${columns}) select id, ${columns} from api_log`);
  await pg.unsafe(`alter table api_log_rowwise add primary key (id)`);
  await pg.unsafe(`create index on api_log_rowwise (account_id, created_at)`);
  await pg.unsafe(`create index on api_log_rowwise (created_at)`);
  await pg.unsafe(`create index on api_log_rowwise (key_id, created_at)`);
  // Events of the last 35 days for the GET /events reads: a tenth of the log, at least 100 000.
  const events = Math.max(Math.round(rows / 10), 100_000);
  log(`filling events and events_rowwise with ${events} events over 35 days`);
  await pg.unsafe(`insert into accounts (id, email, name, password_hash)
    select 'acct_' || n, 'a' || n || '@bench.example', 'A', 'x' from generate_series(0, ${accounts - 1}) as n`);
  await pg.unsafe(`insert into events (account_id, type, data, created_at)
    select 'acct_' || (n % ${accounts}), 'listing.updated', jsonb_build_object('code', 'lst_' || n),
      '${now.toISOString()}'::timestamptz - ((${events} - n)::double precision / ${events} * 35) * interval '1 day'
    from generate_series(1, ${events}) as n`);
  await pg.unsafe(`create table events_rowwise as select * from events`);
  await pg.unsafe(`alter table events_rowwise add primary key (seq)`);
  await pg.unsafe(`create index on events_rowwise (account_id, seq)`);
  await pg.unsafe(`vacuum analyze`);
}

/**
 * Median milliseconds of `query` run `settings.reads` times (after 20 unmeasured), each with the next
 * account as `$1`: a prepared statement, as the application's queries are (postgres.js `prepare`).
 */
async function readMedian(pg: Sql, query: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < settings.reads + 20; i++) {
    const start = performance.now();
    await pg.unsafe(query, [`acct_${i % accounts}`], { prepare: true });
    if (i >= 20) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)] * 100) / 100;
}

// The reads of lib/domain/api-log/list-api-log.ts (first page, 50 rows) and lib/domain/events/list-events.ts (100 events).
const logPage = (table: string) =>
  `select id, request_id, key_id, method, path, status, duration_ms, created_at from ${table}
   where account_id = $1 order by created_at desc, id desc limit 51`;
const eventsPage = (table: string) => `select * from ${table} where account_id = $1 and seq > 1000 order by seq limit 101`;

async function runRetentionBench(cleanup: Cleanup) {
  const { database, pg } = await throwawayDatabase(settings.adminUrl, "bench", log, cleanup);
  const now = new Date();
  // The partitions a year of traffic would have left: the migration made this week's on an empty table.
  await ensurePartitions(database, "api_log", new Date(now.getTime() - spanDays * day), now);
  await ensurePartitions(database, "events", new Date(now.getTime() - 36 * day), now);
  await fill(pg, now);

  const reads = {
    apiLogPage: { partitioned: await readMedian(pg, logPage("api_log")), unpartitioned: await readMedian(pg, logPage("api_log_rowwise")) },
    events: { partitioned: await readMedian(pg, eventsPage("events")), unpartitioned: await readMedian(pg, eventsPage("events_rowwise")) },
  };
  log(`reads (median ms): ${JSON.stringify(reads)}`);

  const rowsCutoff = new Date(now.getTime() - 365 * day).toISOString();
  const bodiesCutoff = new Date(now.getTime() - 30 * day).toISOString();
  const oldBefore = await sizeOf(pg, "api_log_rowwise");
  log("the former job: rows older than 365 days, batch by batch until none is left");
  const oldRows = await timed(() => oldRule(pg, oldRowsBatch(rowsCutoff)));
  log(`the former job: bodies older than 30 days, one run (${oldMaxBatches} batches at most)`);
  const oldBodies = await timed(() => oldRule(pg, oldBodiesBatch(bodiesCutoff), oldMaxBatches));
  const [{ remaining }] = await pg.unsafe(`select count(*)::bigint as remaining from api_log_rowwise
    where created_at < '${bodiesCutoff}' and (request_body is not null or response_body is not null)`);
  const oldAfter = await sizeOf(pg, "api_log_rowwise");

  const newBefore = await sizeOf(pg, "api_log");
  log("today's job step: drop the days past 365, null the bodies of the days past 30");
  const target = partitionedTables.find((candidate) => candidate.table === "api_log")!;
  const partitioned = await timed(() => applyPartitionRetention(database, target, now));
  const newAfter = await sizeOf(pg, "api_log");
  const [dropped, cleared] = partitioned.result;

  const figures = {
    rows: settings.rows,
    rowByRow: {
      sizeBeforeMb: mb(oldBefore),
      sizeAfterMb: mb(oldAfter),
      rowsDeleted: oldRows.result,
      rowsSeconds: round(oldRows.seconds),
      bodiesNulledInOneRun: oldBodies.result,
      bodiesSeconds: round(oldBodies.seconds),
      bodiesLeftForLaterRuns: Number(remaining),
    },
    partitioned: {
      sizeBeforeMb: mb(newBefore),
      sizeAfterMb: mb(newAfter),
      partitionsDropped: dropped.partitions.length,
      partitionsCleared: cleared.partitions.length,
      seconds: round(partitioned.seconds),
    },
    readsMedianMs: reads,
  };
  console.log(JSON.stringify(figures, null, 2));
  mkdirSync(path.dirname(resultsFile), { recursive: true });
  writeFileSync(resultsFile, `${JSON.stringify({ at: now.toISOString(), settings, figures }, null, 2)}\n`);
  return figures;
}

const round = (seconds: number) => Math.round(seconds * 100) / 100;

const steps: (() => Promise<void>)[] = [];
try {
  await runRetentionBench((step) => steps.push(step));
} catch (error) {
  process.exitCode = 1;
  console.error(error);
} finally {
  for (const step of steps.reverse()) await step().catch((error: unknown) => console.error(error));
}
