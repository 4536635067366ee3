import { sql } from "drizzle-orm";
import type { Database } from "@/db";

interface Snapshot {
  tables: string[];
  /** Rows the migrations wrote (the seeded currency rates), as JSON, to put back after each file. */
  seeded: { table: string; rows: string }[];
}

/** The same for every database loaded from the template, so taken once per process. */
let snapshot: Snapshot | undefined;

export const templateRemembered = (): boolean => snapshot !== undefined;

/**
 * What a database loaded from the migrated template holds, taken before any test file wrote to it:
 * its tables (a partitioned one with its partitions: truncated together) and the rows its migrations wrote.
 */
export async function rememberTemplate(db: Database): Promise<void> {
  const tables = (
    await db.rows<{ name: string }>(sql`select c.relname as "name" from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`)
  ).map((row) => row.name);
  const seeded: Snapshot["seeded"] = [];
  for (const table of tables) {
    const [{ rows }] = await db.rows<{ rows: string | null }>(sql`select json_agg(t)::text as "rows" from ${sql.identifier(table)} as t`);
    if (rows) seeded.push({ table, rows });
  }
  snapshot = { tables, seeded };
}

/**
 * Puts the database back as the template was (every table emptied, sequences restarted, the
 * migrations' rows written again), so that the next test file of this worker starts on a database
 * of its own, as if it had loaded the template itself.
 */
export async function restoreTemplate(db: Database): Promise<void> {
  if (!snapshot) throw new Error("restoreTemplate() before rememberTemplate()");
  const { tables, seeded } = snapshot;
  await db.connection.transaction(async (tx) => {
    await tx.execute(
      sql`truncate ${sql.join(
        tables.map((table) => sql.identifier(table)),
        sql`, `,
      )} restart identity cascade`,
    );
    for (const { table, rows } of seeded) {
      await tx.execute(
        sql`insert into ${sql.identifier(table)} select * from json_populate_recordset(null::${sql.identifier(table)}, ${rows}::json)`,
      );
    }
  });
}
