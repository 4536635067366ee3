/**
 * `npm run bench:retention`: the retention of a big API log, the old way against the partitioned one,
 * on a throwaway PostgreSQL database (`PG_ADMIN_URL`). It fills `BENCH_RETENTION_ROWS` API log rows
 * (10 million by default) over 400 days into the partitioned `api_log` (its bodies in `api_log_bodies`)
 * and into an unpartitioned copy holding its bodies in the row, as before migrations 0017 and 0018,
 * then times, on the copy, the former row-by-row job (batches of 1000, as
 * lib/adapters/jobs/retention.ts did for api_log before migration 0017) and, on the partitioned
 * tables, today's job steps (lib/adapters/jobs/partitions.ts), with the sizes before and after; last, the
 * reads of the API log page and of `GET /events` on both layouts (median of `BENCH_RETENTION_READS`).
 * Figures go to stdout and `.data/bench/retention.json`; progress to stderr.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Sql } from "postgres";
import { applyPartitionRetention, ensurePartitions, partitionedTables } from "@/lib/adapters/jobs/partitions";
import { readWindows } from "@/lib/domain/api-log/list-api-log";
import { eventRangeOf, eventSeqSpan } from "@/lib/adapters/jobs/event-partitions";
import { positiveEnv, throwawayDatabase, type Cleanup } from "./lifecycle";

const settings = {
  adminUrl: process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  rows: positiveEnv("BENCH_RETENTION_ROWS", 10_000_000),
  reads: positiveEnv("BENCH_RETENTION_READS", 200),
  /** Events of the 35 days; by default a tenth of the log rows, at least 100 000. */
  events: process.env.BENCH_RETENTION_EVENTS ? positiveEnv("BENCH_RETENTION_EVENTS", 100_000) : undefined,
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
  log(`filling api_log (with api_log_bodies) and api_log_rowwise with ${rows} rows each over ${spanDays} days`);
  // Every row has a response body and one in five a request body, as a PATCH-heavy integrator's log would.
  await pg.unsafe(`create unlogged table api_log_source as select nextval('api_log_id_seq') as id, 'req_' || n as request_id,
      'key_' || (n % 300) as key_id, 'acct_' || (n % ${accounts}) as account_id, case when n % 5 = 0 then 'PATCH' else 'GET' end as method,
      '/api/v1/listings/lst_' || (n % 100000) as path, null::text as query, case when n % 50 = 0 then 404 else 200 end as status,
      5 + n % 40 as duration_ms, '10.1.' || (n % 250) || '.7' as ip,
      case when n % 5 = 0 then jsonb_build_object('price', n % 900000, 'title', 'Apartament 2 camere ' || n) end as request_body,
      jsonb_build_object('data', jsonb_build_object('code', 'lst_' || (n % 100000), 'status', 'published')) as response_body,
      '${now.toISOString()}'::timestamptz - (n::double precision / ${rows} * ${spanDays}) * interval '1 day' as created_at
    from generate_series(1, ${rows}) as n`);
  const meta = "id, request_id, key_id, account_id, method, path, query, status, duration_ms, ip, created_at";
  await pg.unsafe(`insert into api_log (${meta}) select ${meta} from api_log_source`);
  await pg.unsafe(`insert into api_log_bodies (id, created_at, request_body, response_body)
    select id, created_at, request_body, response_body from api_log_source`);
  await pg.unsafe(`create table api_log_rowwise as select * from api_log_source`);
  await pg.unsafe(`drop table api_log_source`);
  await pg.unsafe(`alter table api_log_rowwise add primary key (id)`);
  await pg.unsafe(`create index on api_log_rowwise (account_id, created_at)`);
  await pg.unsafe(`create index on api_log_rowwise (created_at)`);
  await pg.unsafe(`create index on api_log_rowwise (key_id, created_at)`);
  // Events of the last 35 days for the GET /events reads: a tenth of the log, at least 100 000, unless set.
  const events = settings.events ?? Math.max(Math.round(rows / 10), 100_000);
  log(`filling events and events_rowwise with ${events} events over 35 days`);
  await pg.unsafe(`insert into accounts (id, email, name, password_hash)
    select 'acct_' || n, 'a' || n || '@bench.example', 'A', 'x' from generate_series(0, ${accounts - 1}) as n`);
  // Week by week, as the partitions job leaves them: each week's events in a range of seq of its own.
  const weeks = 5;
  const perWeek = Math.ceil(events / weeks);
  for (let week = 0; week < weeks; week++) {
    const range = eventRangeOf(Number((await pg.unsafe(`select last_value from events_seq_seq`))[0].last_value)) + (week === 0 ? 0 : 1);
    await pg.unsafe(
      `select setval('events_seq_seq', ${range * eventSeqSpan}, false) from events_seq_seq where last_value < ${range * eventSeqSpan}`,
    );
    await pg.unsafe(`select ensure_event_partitions(${eventSeqSpan}, ${range}, ${range + 1})`);
    await pg.unsafe(`insert into events (account_id, type, data, created_at)
      select 'acct_' || (n % ${accounts}), 'listing.updated', jsonb_build_object('code', 'lst_' || n),
        '${now.toISOString()}'::timestamptz - ((${events} - n)::double precision / ${events} * 35) * interval '1 day'
      from generate_series(${week * perWeek + 1}, ${Math.min(events, (week + 1) * perWeek)}) as n`);
  }
  await pg.unsafe(`create table events_rowwise as select * from events`);
  await pg.unsafe(`alter table events_rowwise add primary key (seq)`);
  await pg.unsafe(`create index on events_rowwise (account_id, seq)`);
  await pg.unsafe(`vacuum analyze`);
}

/**
 * Median milliseconds of `read` run `settings.reads` times (after 20 unmeasured), each for the next
 * account: prepared statements, as the application's queries are (postgres.js `prepare`).
 */
async function readMedian(read: (account: string) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < settings.reads + 20; i++) {
    const start = performance.now();
    await read(`acct_${i % accounts}`);
    if (i >= 20) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)] * 100) / 100;
}

const logColumns = "id, request_id, key_id, method, path, status, duration_ms, created_at";
/** The log page's first page (50 rows) as lib/domain/api-log/list-api-log.ts read it before: one query, no bound on time. */
const logPageUnbounded = (pg: Sql, table: string) => (account: string) =>
  pg.unsafe(`select ${logColumns} from ${table} where account_id = $1 order by created_at desc, id desc limit 51`, [account], {
    prepare: true,
  });
/** The log page's first page as it reads now: window by window, newest first, until 51 rows (`readWindows`). */
const logPageWindowed = (pg: Sql, now: Date) => async (account: string) => {
  const rows = [];
  for (const [from, to] of readWindows(now)) {
    rows.push(
      ...(await pg.unsafe(
        `select ${logColumns} from api_log where account_id = $1 and created_at >= $2 and created_at < $3
         order by created_at desc, id desc limit $4`,
        [account, from.toISOString(), to.toISOString(), 51 - rows.length],
        { prepare: true },
      )),
    );
    if (rows.length > 50) break;
  }
  return rows;
};
// The read of lib/domain/events/list-events.ts (100 events) after the cursor `after`: today through the
// SQL function of migration 0020 (a generic plan), before as the statement itself on one table.
const eventsPage = (pg: Sql, layout: "partitioned" | "unpartitioned", after: number) => (account: string) =>
  layout === "partitioned"
    ? pg.unsafe(`select * from events_after($1, $2, 101)`, [account, after], { prepare: true })
    : pg.unsafe(`select * from events_rowwise where account_id = $1 and seq > $2 order by seq limit 101`, [account, after], {
        prepare: true,
      });

async function runRetentionBench(cleanup: Cleanup) {
  const { database, pg } = await throwawayDatabase(settings.adminUrl, "bench", log, cleanup);
  const now = new Date();
  // The partitions a year of traffic would have left: the migration made this week's on an empty table.
  for (const target of partitionedTables) await ensurePartitions(database, target, new Date(now.getTime() - spanDays * day), now);
  await fill(pg, now);
  const [{ recent }] = await pg.unsafe(`select min(seq)::bigint as recent from events where created_at > now() - interval '1 day'`);
  const recentCursor = Number(recent) - 1;

  const reads = {
    apiLogPage: {
      partitioned: await readMedian(logPageWindowed(pg, now)),
      partitionedUnbounded: await readMedian(logPageUnbounded(pg, "api_log")),
      unpartitioned: await readMedian(logPageUnbounded(pg, "api_log_rowwise")),
    },
    // From the oldest event (a first synchronisation), and from a cursor among the last day's (polling).
    eventsFirstPage: {
      partitioned: await readMedian(eventsPage(pg, "partitioned", 0)),
      unpartitioned: await readMedian(eventsPage(pg, "unpartitioned", 0)),
    },
    eventsRecent: {
      partitioned: await readMedian(eventsPage(pg, "partitioned", recentCursor)),
      unpartitioned: await readMedian(eventsPage(pg, "unpartitioned", recentCursor)),
    },
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

  const partitionedSize = async () => (await sizeOf(pg, "api_log")) + (await sizeOf(pg, "api_log_bodies"));
  const newBefore = await partitionedSize();
  log("today's job steps: drop the weeks past 365 days, and the days of bodies past 30");
  const steps = (["api_log", "api_log_bodies"] as const).map((name) => partitionedTables.find((candidate) => candidate.table === name)!);
  const partitioned = await timed(async () => {
    const results = [];
    for (const target of steps) results.push(await applyPartitionRetention(database, target, now));
    return results;
  });
  const newAfter = await partitionedSize();
  const [dropped, bodiesDropped] = partitioned.result;

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
      weeksDropped: dropped.partitions.length,
      bodyDaysDropped: bodiesDropped.partitions.length,
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
