import { sql } from "drizzle-orm";
import type { Database } from "@/db";
import { apiLogBodyDays, apiLogDays } from "@/lib/domain/api-log/retention";
import { dropPartition, timestamp } from "./drop-partition";
import { advanceEventPartitions, applyEventRetention } from "./event-partitions";

/**
 * A table partitioned by UTC `period` on `created_at` (migrations 0017 and 0018): partitions
 * `<table>_pYYYYMMDD` named by their first day, and `<table>_default` for rows of a period without
 * one. Retention drops the partitions wholly older than `keepDays` instead of deleting their rows one
 * by one, so a row is kept `keepDays` and less than one period more; reads hide it from `keepDays` on.
 */
export interface PartitionedTable {
  table: "api_log" | "api_log_bodies";
  period: "day" | "week";
  keepDays: number;
}

/**
 * Weeks where a read has no time bound (the API log page): such a read plans and opens every
 * partition, and 53 weeks cost far less than 365 days. The bodies are read by id and time (one
 * partition), so they take days and are dropped within a day of their 30 (operations guide, Jobs).
 * Events are partitioned by ranges of `seq` instead (event-partitions.ts).
 */
export const partitionedTables: readonly PartitionedTable[] = [
  { table: "api_log", period: "week", keepDays: apiLogDays },
  { table: "api_log_bodies", period: "day", keepDays: apiLogBodyDays },
];

const day = 86_400_000;
const periodMs = { day, week: 7 * day } as const;

/** Days created ahead of today by `partitions.create` (and by the migrations): a week of missed runs is harmless. */
export const partitionDaysAhead = 7;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The missing partitions of `target` covering `from` to `to` (UTC days, both included), filled with
 * their rows from DEFAULT; the SQL function of migration 0017 does it. Returns how many it created.
 */
export async function ensurePartitions(database: Database, target: PartitionedTable, from: Date, to: Date): Promise<number> {
  const [{ created }] = await database.rows<{ created: number }>(
    sql`select ensure_partitions(${target.table}, ${target.period}, ${isoDay(from)}::date, ${isoDay(to)}::date) as created`,
  );
  return created;
}

export async function createPartitionsAhead(database: Database, now: Date): Promise<{ table: string; created: number }[]> {
  const results = [];
  for (const target of partitionedTables)
    results.push({
      table: target.table,
      created: await ensurePartitions(database, target, now, new Date(now.getTime() + partitionDaysAhead * day)),
    });
  results.push(await advanceEventPartitions(database, now));
  return results;
}

interface Partition {
  name: string;
  /** The end of its period: every row is older. */
  end: Date;
}

async function partitionsOf(database: Database, target: PartitionedTable): Promise<Partition[]> {
  const rows = await database.rows<{ name: string }>(sql`select c.relname as name
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${target.table}::regclass and c.relname ~ '_p[0-9]{8}$' order by c.relname`);
  return rows.map(({ name }) => {
    const digits = name.slice(-8);
    const start = Date.parse(`${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6)}T00:00:00Z`);
    return { name, end: new Date(start + periodMs[target.period]) };
  });
}

export interface PartitionRetentionResult {
  table: PartitionedTable["table"] | "events";
  /** Partitions dropped, wholly older than `keepDays`. */
  partitions: string[];
  /** Rows of DEFAULT deleted one by one. */
  defaultRows: number;
}

export async function applyPartitionRetention(database: Database, target: PartitionedTable, now: Date): Promise<PartitionRetentionResult> {
  const cutoff = new Date(now.getTime() - target.keepDays * day);
  const dropped: string[] = [];
  for (const partition of (await partitionsOf(database, target)).filter((p) => p.end <= cutoff))
    if (await dropPartition(database, partition.name)) dropped.push(partition.name);
  const fallback = sql.identifier(`${target.table}_default`);
  const deleted = await database.rows(sql`delete from ${fallback} where created_at < ${timestamp(cutoff)} returning 1`);
  return { table: target.table, partitions: dropped, defaultRows: deleted.length };
}

export async function applyPartitionsRetention(database: Database, now: Date): Promise<PartitionRetentionResult[]> {
  const results: PartitionRetentionResult[] = [];
  for (const target of partitionedTables) results.push(await applyPartitionRetention(database, target, now));
  results.push(await applyEventRetention(database, now));
  return results;
}
