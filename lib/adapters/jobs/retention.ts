import { and, lt, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "@/db";

/**
 * One retention limit. Without `clear` the rows older than `keepDays` are deleted;
 * with it those columns are set to null and the rows stay.
 */
export interface RetentionRule {
  name: string;
  keepDays: number;
  table: PgTable;
  /** The primary key, to address one batch. */
  key: PgColumn;
  /** The timestamp the age is measured from. */
  age: PgColumn;
  /** Only rows matching this as well (a status, for instance). */
  where?: SQL;
  clear?: PgColumn[];
}

export interface RetentionResult {
  rule: string;
  affected: number;
  /** False when the run stopped at `maxBatches`; the next run goes on. */
  complete: boolean;
}

// Small batches, each its own statement: a run never holds a lock on many rows for long, and
// requests writing the same table interleave between batches.
export const retentionBatchSize = 1000;
const maxBatches = 200;

const cutoffFor = (rule: RetentionRule, now: Date) => new Date(now.getTime() - rule.keepDays * 86_400_000);

function batchStatement(rule: RetentionRule, cutoff: Date): SQL {
  const old = [lt(rule.age, cutoff), rule.where];
  if (rule.clear)
    old.push(
      sql`(${sql.join(
        rule.clear.map((column) => sql`${column} is not null`),
        sql` or `,
      )})`,
    );
  const batch = sql`select ${rule.key} from ${rule.table} where ${and(...old)} limit ${retentionBatchSize}`;
  const target = sql`${rule.key} in (${batch}) returning ${rule.key}`;
  if (!rule.clear) return sql`delete from ${rule.table} where ${target}`;
  // SET takes bare column names; the table-qualified form drizzle renders is refused there.
  const assignments = sql.join(
    rule.clear.map((column) => sql`${sql.identifier(column.name)} = null`),
    sql`, `,
  );
  return sql`update ${rule.table} set ${assignments} where ${target}`;
}

export async function applyRetentionRule(database: Database, rule: RetentionRule, now: Date): Promise<RetentionResult> {
  const statement = batchStatement(rule, cutoffFor(rule, now));
  let affected = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const count = (await database.rows<unknown>(statement)).length;
    affected += count;
    if (count < retentionBatchSize) return { rule: rule.name, affected, complete: true };
  }
  return { rule: rule.name, affected, complete: false };
}

export async function applyRetention(database: Database, rules: readonly RetentionRule[], now: Date): Promise<RetentionResult[]> {
  const results: RetentionResult[] = [];
  for (const rule of rules) results.push(await applyRetentionRule(database, rule, now));
  return results;
}
