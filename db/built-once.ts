import { getTableColumns, is, SQL, Table, type Query } from "drizzle-orm";
import type { PgColumn, SelectedFieldsOrdered } from "drizzle-orm/pg-core";
import type { Handle } from "./client";

/** What a statement answers, as drizzle takes a selection: columns, SQL, and tables whose columns nest under their key. */
export type Selection = Record<string, PgColumn | SQL | SQL.Aliased | Table>;

/** A statement whose SQL text is built once, run on any handle with its placeholders' values. */
export interface BuiltOnce<Row> {
  run(db: Handle, values: Record<string, unknown>): Promise<Row[]>;
}

/**
 * A statement drizzle builds once per process instead of on every call: its text and parameters
 * (values as `sql.placeholder`s) are kept, and each run hands them with the values to the handle's
 * session, on the pool or inside a transaction alike. drizzle's own `.prepare()` is bound to the
 * handle it was made on, so it cannot serve a transaction; building a listing's statements anew
 * (40 columns, each one a chunk drizzle inspects) cost the PATCH more CPU than its round trips
 * (docs/benchmarks.md). `answers` is the statement's selection (a `returning` without arguments
 * answers its table's columns), in the statement's own order; rows map as drizzle maps them. On
 * PostgreSQL the statement is prepared once per connection (postgres.js keeps it by its text).
 */
export function builtOnce<Row>(answers: Selection, build: (db: Handle) => { toSQL(): Query }): BuiltOnce<Row> {
  let built: { query: Query; fields: SelectedFieldsOrdered } | undefined;
  return {
    async run(db, values) {
      built ??= { query: build(db).toSQL(), fields: ordered(answers) };
      const statement = db._.session.prepareQuery(built.query, built.fields, "built-once", true);
      return (await statement.execute(values)) as Row[];
    },
  };
}

/**
 * The selection's fields in the order drizzle writes them into the statement (its own
 * `orderSelectedFields`, which it does not export): each key in turn, a table's columns in place.
 */
function ordered(selection: Record<string, unknown>, path: string[] = []): SelectedFieldsOrdered {
  return Object.entries(selection).flatMap(([key, field]) =>
    is(field, Table)
      ? ordered(getTableColumns(field), [...path, key])
      : [{ path: [...path, key], field: field as PgColumn | SQL | SQL.Aliased }],
  );
}

/** A table's columns as a selection: what `returning()` without arguments answers. */
export const allColumns = (table: Table): Selection => getTableColumns(table);
