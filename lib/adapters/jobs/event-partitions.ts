import { sql } from "drizzle-orm";
import type { Database } from "@/db";
import { dropPartition, timestamp } from "./drop-partition";

/**
 * Events are partitioned by ranges of `seq` (migration 0020): range k, the partition `events_sNNNNNNN`,
 * holds seq from k·span to (k+1)·span. `GET /events` reads by cursor (`seq > after order by seq`), so
 * it opens the range of its cursor and those after it, not every week of the retention.
 *
 * A range is closed after about a week: once the current range's oldest event is `rangeDays` old, the
 * partitions job moves the sequence on to the next range's start (ids only ever grow; a gap is no
 * gap to a cursor, which is a position). Retention drops a closed range once its newest event is
 * `keepDays` old: an event is kept 35 days and less than a week more. A range holds 10^9 ids, a week
 * at 1 650 events a second; a busier week runs into the next range, made ahead.
 */
export const eventSeqSpan = 1_000_000_000;
export const eventRangeDays = 7;
export const eventKeepDays = 35;

const day = 86_400_000;

export const eventRangeOf = (seq: number) => Math.floor(seq / eventSeqSpan);
export const eventPartitionName = (range: number) => `events_s${String(range).padStart(7, "0")}`;

/** The sequence's last value: the range new events are written in. */
async function lastSeq(database: Database): Promise<number> {
  const [{ last }] = await database.rows<{ last: string }>(sql`select last_value as last from events_seq_seq`);
  return Number(last);
}

/** The oldest and newest `created_at` of a partition (its index on created_at answers both), null when empty or gone. */
async function eventTimes(database: Database, partition: string): Promise<{ oldest: Date; newest: Date } | null> {
  const [{ present }] = await database.rows<{ present: boolean }>(sql`select to_regclass(${partition}) is not null as present`);
  if (!present) return null;
  const table = sql.identifier(partition);
  const [row] = await database.rows<{ oldest: string | Date | null; newest: string | Date | null }>(
    sql`select (select min(created_at) from ${table}) as oldest, (select max(created_at) from ${table}) as newest`,
  );
  return row.oldest === null || row.newest === null ? null : { oldest: new Date(row.oldest), newest: new Date(row.newest) };
}

/**
 * The partitions job's part for events: closes the current range when its oldest event is
 * `eventRangeDays` old (the sequence moves on to the next range's start, unless writers got there
 * first), then makes the current range and the next if missing, moving into them the rows DEFAULT
 * held for them (the SQL function of migration 0020).
 */
export async function advanceEventPartitions(
  database: Database,
  now: Date,
): Promise<{ table: "events"; created: number; closed: boolean }> {
  let range = eventRangeOf(await lastSeq(database));
  const times = await eventTimes(database, eventPartitionName(range));
  const closed = times !== null && times.oldest.getTime() <= now.getTime() - eventRangeDays * day;
  if (closed) {
    range += 1;
    const next = range * eventSeqSpan;
    // `false`: the next id is `next` itself. Never backwards: writers may have passed it meanwhile.
    await database.rows(
      sql`select setval('events_seq_seq', ${next}::bigint, false) from events_seq_seq where last_value < ${next}::bigint`,
    );
  }
  const [{ created }] = await database.rows<{ created: number }>(
    sql`select ensure_event_partitions(${eventSeqSpan}::bigint, ${range}::bigint, ${range + 1}::bigint) as created`,
  );
  return { table: "events", created, closed };
}

/**
 * Drops every closed range (below the sequence's) whose newest event is older than `eventKeepDays`,
 * or which is empty, with the webhook deliveries of its events (deleted after 30 days, so normally
 * none is left); then deletes DEFAULT's events older than that, one by one (DEFAULT holds rows only
 * when the partitions job has not made their range in time).
 */
export async function applyEventRetention(database: Database, now: Date) {
  const cutoff = new Date(now.getTime() - eventKeepDays * day);
  const current = eventRangeOf(await lastSeq(database));
  const partitions = await database.rows<{ name: string }>(sql`select c.relname as name
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'events'::regclass and c.relname ~ '^events_s[0-9]{7}$' order by c.relname`);
  const dropped: string[] = [];
  for (const { name } of partitions) {
    const range = Number(name.slice("events_s".length));
    if (range >= current) continue;
    const times = await eventTimes(database, name);
    if (times !== null && times.newest >= cutoff) continue;
    const deliveries = sql`delete from webhook_deliveries
      where event_seq >= ${range * eventSeqSpan}::bigint and event_seq < ${(range + 1) * eventSeqSpan}::bigint`;
    if (await dropPartition(database, name, deliveries)) dropped.push(name);
  }
  const deleted = await database.rows(sql`delete from events_default where created_at < ${timestamp(cutoff)} returning 1`);
  return { table: "events" as const, partitions: dropped, defaultRows: deleted.length };
}
