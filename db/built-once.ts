import { Column, getTableColumns, is, SQL, Table, type DriverValueDecoder, type Query } from "drizzle-orm";
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
 * answers its table's columns), in the statement's own order; rows map as drizzle maps them, by a
 * mapper made once (`rowMapper`). On PostgreSQL the statement is prepared once per connection
 * (postgres.js keeps it by its text), and PostgreSQL may then plan it once for every run.
 *
 * `planEachRun` leaves it unnamed (drizzle names a prepared statement only when given a name):
 * PostgreSQL plans it at every run, for its parameters and the tables as they are then. For a
 * statement whose best plan moves with a table's size: a plan made once, while the table was young,
 * is kept until the table is next analyzed. The webhook lane's hand-off read every delivery row
 * that way, doubling PostgreSQL's CPU a delivery in a new database (docs/benchmarks.md).
 *
 * The one file that uses drizzle's private session API (`db._.session.prepareQuery`, an SQL field's
 * `decoder`, the order of `orderSelectedFields`): its public `.prepare(name)` builds the statement
 * again on each transaction's handle, 90 µs of CPU for the PATCH's update and 160 µs for its locking
 * read, where handing a kept statement to the session takes 0.1 µs. tests/db/built-once.test.ts
 * compares what these statements answer with drizzle's own queries and public prepared statements,
 * on PGlite and PostgreSQL, so a drizzle upgrade that changes any of it fails there.
 */
export function builtOnce<Row>(
  answers: Selection,
  build: (db: Handle) => { toSQL(): Query },
  options: { planEachRun?: boolean } = {},
): BuiltOnce<Row> {
  let built: { query: Query; fields: SelectedFieldsOrdered; toRows: (rows: unknown[][]) => Row[] } | undefined;
  return {
    async run(db, values) {
      if (!built) {
        const fields = ordered(answers);
        built = { query: build(db).toSQL(), fields, toRows: rowMapper<Row>(fields) };
      }
      const name = options.planEachRun ? undefined : "built-once";
      const statement = db._.session.prepareQuery(built.query, built.fields, name, true, built.toRows);
      return (await statement.execute(values)) as Row[];
    },
  };
}

/**
 * drizzle's own row mapping (`mapResultRow`) without what it works out again for every row: which
 * decoder each field has (four `is()` checks a field) and where in the object it goes. The result is
 * the same object for these selections: a value, or a table's columns under its key, `null` kept as
 * `null` without decoding. (drizzle's nulling of a left-joined table whose columns are all null needs
 * the join map its select builder sets, which a built statement never had.)
 */
function rowMapper<Row>(fields: SelectedFieldsOrdered): (rows: unknown[][]) => Row[] {
  const places = fields.map(({ path, field }) => ({
    parent: path.length > 1 ? path[0] : undefined,
    key: path[path.length - 1],
    decoder: decoderOf(field),
  }));
  if (places.some(({ parent }, index) => parent !== undefined && fields[index].path.length > 2))
    throw new Error("builtOnce: a selection nests one level at most");
  const parents = [...new Set(places.flatMap(({ parent }) => (parent === undefined ? [] : [parent])))];
  return (rows) =>
    rows.map((values) => {
      const row: Record<string, unknown> = {};
      for (const parent of parents) row[parent] = {};
      places.forEach(({ parent, key, decoder }, index) => {
        const value = values[index];
        (parent === undefined ? row : (row[parent] as Record<string, unknown>))[key] =
          value === null ? null : decoder.mapFromDriverValue(value);
      });
      return row as Row;
    });
}

/** The decoder drizzle's `mapResultRow` picks for a field (an SQL's `decoder` is internal in drizzle's types). */
function decoderOf(field: SelectedFieldsOrdered[number]["field"]): DriverValueDecoder<unknown, unknown> {
  type Decoded = { decoder: DriverValueDecoder<unknown, unknown> };
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as Decoded).decoder;
  if (is(field, SQL.Aliased)) return (field.sql as unknown as Decoded).decoder;
  throw new Error("builtOnce: a selection of columns, SQL and tables only");
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
