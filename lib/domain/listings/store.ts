import { and, eq, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { allColumns, builtOnce, type BuiltOnce } from "@/db/built-once";
import { listings, type ListingStatus } from "@/db/schema";
import { AppError } from "@/lib/base/errors";
import { baseCurrency, toEur, type CurrencyRates } from "@/lib/domain/currency/currencies";
import type { TransactionContext } from "@/lib/base/context";
import type { ListedRow, ListingRow } from "./read-shape";
import { addressKey } from "./internal/address-key";
import { searchKey } from "./internal/search-key";

/** Columns the catalog and the duplicate check search on, derived from the stored fields on every write. */
export function searchColumns(fields: Record<string, unknown>, rates: CurrencyRates) {
  const price = typeof fields.price === "number" ? fields.price : null;
  const currency = typeof fields.price_currency === "string" ? fields.price_currency : baseCurrency;
  const eur = price === null ? null : toEur(price, currency, rates);
  return {
    city: typeof fields.city === "string" ? searchKey(fields.city) : null,
    rooms: typeof fields.rooms === "number" ? fields.rooms : null,
    priceEur: eur === null || eur === undefined ? null : Math.round(eur),
    addressKey: addressKey(fields),
    latitude: typeof fields.latitude === "number" ? fields.latitude : null,
    longitude: typeof fields.longitude === "number" ? fields.longitude : null,
  };
}

export interface ListingChanges {
  status?: ListingStatus;
  fields?: Record<string, unknown>;
  pendingFields?: Record<string, unknown> | null;
  rejectionReason?: string | null;
  rejectionCodes?: string[] | null;
  publishedAt?: Date;
  confirmedAt?: Date;
  deletedAt?: Date;
  externalRef?: string | null;
  images?: string[];
  mediaProcessing?: boolean;
  sourceUpdatedAt?: Date;
  withdrawnByImport?: string | null;
}

/** The same listing after a write: the row changes, who lists it does not. */
export const rewritten = (listed: ListedRow, row: ListingRow): ListedRow => ({ ...listed, row, modSeq: row.modSeq });

/**
 * Writes a change to a listing locked in `ctx`'s transaction: a new version (its ETag changes) and
 * a new place in the "last modified" order. The write applies only to the version `row` holds, the
 * one the caller checked (`If-Match`, the state): were the lock's read not the row's latest version
 * (a pooler running the read and the write in different sessions), it writes nothing and answers
 * 409 `listing_busy`, which the client retries and then gets the answer the latest version deserves.
 */
export async function updateListing(
  ctx: TransactionContext,
  row: ListingRow,
  changes: ListingChanges,
  rates?: CurrencyRates,
): Promise<ListingRow> {
  const derived = changes.fields && rates ? searchColumns(changes.fields, rates) : {};
  // Who paused a listing holds only while it stays paused: any other change of status forgets it.
  if (changes.status !== undefined && changes.withdrawnByImport === undefined && row.withdrawnByImport !== null) {
    changes = { ...changes, withdrawnByImport: null };
  }
  const given = Object.entries({ ...changes, ...derived, version: row.version + 1, updatedAt: ctx.now }).filter(
    ([, value]) => value !== undefined,
  );
  const [updated] = await updateStatement(given).run(ctx.db, { ...Object.fromEntries(given), id: row.id, read: row.version });
  if (!updated) throw new AppError("listing_busy");
  return updated;
}

/**
 * The update of these columns, built once per set of columns (a handful of shapes: each caller
 * changes the same ones every time). A null is written into the statement: a placeholder's value
 * goes through its column's encoder, which would store JSON `null` in a `jsonb` column.
 */
function updateStatement(given: [string, unknown][]): BuiltOnce<ListingRow> {
  const shape = given.map(([column, value]) => (value === null ? `${column}=null` : column)).join(",");
  let statement = updates.get(shape);
  if (!statement) {
    const set = Object.fromEntries(given.map(([column, value]) => [column, value === null ? null : sql.placeholder(column)]));
    statement = builtOnce<ListingRow>(allColumns(listings), (db) =>
      db
        .update(listings)
        .set({ ...set, modSeq: sql`nextval(pg_get_serial_sequence('listings', 'mod_seq'))` } as PgUpdateSetSource<typeof listings>)
        .where(and(eq(listings.id, sql.placeholder("id")), eq(listings.version, sql.placeholder("read"))))
        .returning(),
    );
    updates.set(shape, statement);
  }
  return statement;
}

const updates = new Map<string, BuiltOnce<ListingRow>>();

/**
 * Stores a later `source_updated_at` of a write that changed nothing else: the listing keeps its
 * version (its ETag) and its place in the "last modified" order.
 */
export async function keepSourceTime(ctx: TransactionContext, row: ListingRow, sourceUpdatedAt: Date): Promise<ListingRow> {
  const [updated] = await ctx.db.update(listings).set({ sourceUpdatedAt }).where(eq(listings.id, row.id)).returning();
  return updated;
}
