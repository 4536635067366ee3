import { sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db";

/** A moment as a parameter of raw SQL: postgres.js takes no Date there. */
export const timestamp = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * The advisory lock (one-bigint form, "part") held while partitions are created (the SQL functions of
 * migrations 0017 and 0020) or dropped: two runs at once then neither create a partition twice nor
 * drop one twice.
 */
const partitionLockKey = 0x70617274;

/**
 * Drops the partition `name` in a transaction holding the partitions lock, unless another run has
 * dropped it meanwhile; `beforeDrop` runs first in the same transaction (rows elsewhere naming its
 * rows). Every lock is waited for at most 10 s: dropping a partition locks the parent, and a drop
 * queued behind a long read would hold up every query after it; the next run tries again. True when
 * this run dropped it.
 */
export async function dropPartition(database: Database, name: string, beforeDrop?: SQL): Promise<boolean> {
  return database.connection.transaction(async (tx) => {
    await tx.execute(sql`set local lock_timeout = '10s'`);
    await tx.execute(sql`select pg_advisory_xact_lock(${partitionLockKey}::bigint)`);
    const [{ present }] = await database.rows<{ present: boolean }>(sql`select to_regclass(${name}) is not null as present`, tx);
    if (!present) return false;
    if (beforeDrop) await tx.execute(beforeDrop);
    await tx.execute(sql`drop table ${sql.identifier(name)}`);
    return true;
  });
}
