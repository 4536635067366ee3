import { sql, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "@/db";

/**
 * A table partitioned by UTC week on `created_at` (migration 0017): partitions `<table>_pYYYYMMDD`
 * named by their Monday, and `<table>_default` for rows of a week without one. Retention drops the
 * weeks wholly older than `keepDays` instead of deleting their rows one by one, so a row is kept
 * `keepDays` and at most 7 days more.
 */
export interface PartitionedTable {
  table: "api_log" | "events";
  keepDays: number;
  /** Columns nulled, one UPDATE per partition, once the whole week is older than `afterDays`. */
  clear?: { rule: string; afterDays: number; columns: string[] };
  /** Run before a partition is dropped, in the same transaction: rows elsewhere naming its rows. */
  beforeDrop?: (partition: string, end: Date) => SQL;
}

export const partitionedTables: readonly PartitionedTable[] = [
  // Bodies share the row: the week's partition stays for its metadata, and its bodies go in one UPDATE.
  { table: "api_log", keepDays: 365, clear: { rule: "api_log.bodies", afterDays: 30, columns: ["request_body", "response_body"] } },
  {
    table: "events",
    keepDays: 35,
    // Deliveries are deleted after 30 days, so normally none is left; their index on created_at finds any that are.
    beforeDrop: (partition, end) =>
      sql`delete from webhook_deliveries d where d.created_at < ${timestamp(end)} and exists (select 1 from ${sql.identifier(partition)} e where e.seq = d.event_seq)`,
  },
];

/**
 * Weeks, not days: reads without a time bound (the API log page, GET /events) plan and open every
 * partition, and 53 weeks cost far less than 365 days (README, Jobs).
 */
const period = "week";
const periodMs = 7 * 86_400_000;

/** Days created ahead of today by `partitions.create` (and by the migration): a week of missed runs is harmless. */
export const partitionDaysAhead = 7;

const day = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
// A moment as a parameter of raw SQL: postgres.js takes no Date there.
const timestamp = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * The missing partitions of `table` covering `from` to `to` (UTC days, both included), filled with
 * their rows from DEFAULT; the SQL function of migration 0017 does it. Returns how many it created.
 */
export async function ensurePartitions(database: Database, table: PartitionedTable["table"], from: Date, to: Date): Promise<number> {
  const [{ created }] = await database.rows<{ created: number }>(
    sql`select ensure_partitions(${table}, ${period}, ${isoDay(from)}::date, ${isoDay(to)}::date) as created`,
  );
  return created;
}

export async function createPartitionsAhead(database: Database, now: Date): Promise<{ table: string; created: number }[]> {
  const results = [];
  for (const { table } of partitionedTables)
    results.push({ table, created: await ensurePartitions(database, table, now, new Date(now.getTime() + partitionDaysAhead * day)) });
  return results;
}

interface Partition {
  name: string;
  /** The end of its week: every row is older. */
  end: Date;
  cleared: boolean;
}

/**
 * The advisory lock (one-bigint form, "part") held while partitions are created (the SQL function),
 * dropped or cleared: two runs at once then neither create a partition twice nor drop one twice.
 */
const partitionLockKey = 0x70617274;

async function partitionsOf(database: Database, table: string): Promise<Partition[]> {
  // A cleared partition carries the check constraint `<partition>_cleared` (clearColumns).
  const rows = await database.rows<{ name: string; cleared: boolean }>(sql`select c.relname as name,
      exists (select 1 from pg_constraint k where k.conrelid = c.oid and k.conname = c.relname || '_cleared') as cleared
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${table}::regclass and c.relname ~ '_p[0-9]{8}$' order by c.relname`);
  return rows.map(({ name, cleared }) => {
    const digits = name.slice(-8);
    const start = Date.parse(`${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6)}T00:00:00Z`);
    return { name, end: new Date(start + periodMs), cleared };
  });
}

/**
 * Runs `work` on `partition` in a transaction holding the partitions lock, unless another run has
 * dropped or cleared it meanwhile (`cleared`). Every lock is waited for at most 10 s: dropping a
 * partition locks the parent, and a drop queued behind a long read would hold up every query after
 * it; the next run tries again. True when `work` ran.
 */
async function onPartition(database: Database, partition: string, work: (tx: Transaction) => Promise<unknown>): Promise<boolean> {
  return database.connection.transaction(async (tx) => {
    await tx.execute(sql`set local lock_timeout = '10s'`);
    await tx.execute(sql`select pg_advisory_xact_lock(${partitionLockKey}::bigint)`);
    const [{ present, cleared }] = await database.rows<{ present: boolean; cleared: boolean }>(
      sql`select to_regclass(${partition}) is not null as present,
        exists (select 1 from pg_constraint where conrelid = to_regclass(${partition}) and conname = ${`${partition}_cleared`}) as cleared`,
      tx,
    );
    if (!present || cleared) return false;
    await work(tx);
    return true;
  });
}

export interface PartitionRetentionResult {
  rule: string;
  /** Partitions dropped (`keepDays`) or whose columns were nulled (`clear`). */
  partitions: string[];
  /** Rows of DEFAULT deleted or nulled one by one. */
  defaultRows: number;
}

export async function applyPartitionRetention(
  database: Database,
  target: PartitionedTable,
  now: Date,
): Promise<PartitionRetentionResult[]> {
  const cutoff = new Date(now.getTime() - target.keepDays * day);
  const partitions = await partitionsOf(database, target.table);
  const dropped: string[] = [];
  for (const partition of partitions.filter((p) => p.end <= cutoff)) {
    const done = await onPartition(database, partition.name, async (tx) => {
      if (target.beforeDrop) await tx.execute(target.beforeDrop(partition.name, partition.end));
      await tx.execute(sql`drop table ${sql.identifier(partition.name)}`);
    });
    if (done) dropped.push(partition.name);
  }
  const fallback = sql.identifier(`${target.table}_default`);
  const deleted = await database.rows(sql`delete from ${fallback} where created_at < ${timestamp(cutoff)} returning 1`);
  const results = [{ rule: `${target.table}.rows`, partitions: dropped, defaultRows: deleted.length }];
  if (target.clear)
    results.push(
      await clearColumns(
        database,
        target.table,
        target.clear,
        now,
        partitions.filter((p) => p.end > cutoff),
      ),
    );
  return results;
}

async function clearColumns(
  database: Database,
  table: string,
  clear: NonNullable<PartitionedTable["clear"]>,
  now: Date,
  partitions: Partition[],
): Promise<PartitionRetentionResult> {
  const cutoff = new Date(now.getTime() - clear.afterDays * day);
  const assignments = sql.join(
    clear.columns.map((column) => sql`${sql.identifier(column)} = null`),
    sql`, `,
  );
  const filled = sql.join(
    clear.columns.map((column) => sql`${sql.identifier(column)} is not null`),
    sql` or `,
  );
  const nulls = sql.join(
    clear.columns.map((column) => sql`${sql.identifier(column)} is null`),
    sql` and `,
  );
  const cleared: string[] = [];
  for (const partition of partitions.filter((p) => p.end <= cutoff && !p.cleared)) {
    const done = await onPartition(database, partition.name, async (tx) => {
      await tx.execute(sql`update ${sql.identifier(partition.name)} set ${assignments} where ${filled}`);
      // Marks the week cleared and keeps it so: a late row with bodies is refused, and the API log's
      // writer stores it without them (lib/adapters/http/api-log.ts). NOT VALID: the UPDATE just made it true.
      await tx.execute(
        sql`alter table ${sql.identifier(partition.name)} add constraint ${sql.identifier(`${partition.name}_cleared`)} check (${nulls}) not valid`,
      );
    });
    if (done) cleared.push(partition.name);
  }
  const fallback = sql.identifier(`${table}_default`);
  const nulled = await database.rows(
    sql`update ${fallback} set ${assignments} where created_at < ${timestamp(cutoff)} and (${filled}) returning 1`,
  );
  return { rule: clear.rule, partitions: cleared, defaultRows: nulled.length };
}

export async function applyPartitionsRetention(database: Database, now: Date): Promise<PartitionRetentionResult[]> {
  const results: PartitionRetentionResult[] = [];
  for (const target of partitionedTables) results.push(...(await applyPartitionRetention(database, target, now)));
  return results;
}
