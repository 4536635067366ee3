import { eq, sql } from "drizzle-orm";
import { listings, type ListingStatus } from "@/db/schema";
import { baseCurrency, toEur, type CurrencyRates } from "@/lib/domain/currency/currencies";
import type { TransactionContext } from "@/lib/base/context";
import type { ListedRow, ListingRow } from "./read-shape";
import { searchKey } from "./internal/search-key";

/** Columns the catalog searches on, derived from the stored fields on every write. */
export function searchColumns(fields: Record<string, unknown>, rates: CurrencyRates) {
  const price = typeof fields.price === "number" ? fields.price : null;
  const currency = typeof fields.price_currency === "string" ? fields.price_currency : baseCurrency;
  const eur = price === null ? null : toEur(price, currency, rates);
  return {
    city: typeof fields.city === "string" ? searchKey(fields.city) : null,
    rooms: typeof fields.rooms === "number" ? fields.rooms : null,
    priceEur: eur === null || eur === undefined ? null : Math.round(eur),
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
}

/** The same listing after a write: the row changes, who lists it does not. */
export const rewritten = (listed: ListedRow, row: ListingRow): ListedRow => ({ ...listed, row, modSeq: row.modSeq });

/**
 * Writes a change to a listing locked in `ctx`'s transaction: a new version (its ETag changes) and
 * a new place in the "last modified" order.
 */
export async function updateListing(
  ctx: TransactionContext,
  row: ListingRow,
  changes: ListingChanges,
  rates?: CurrencyRates,
): Promise<ListingRow> {
  const derived = changes.fields && rates ? searchColumns(changes.fields, rates) : {};
  const [updated] = await ctx.db
    .update(listings)
    .set({
      ...changes,
      ...derived,
      version: row.version + 1,
      modSeq: sql`nextval(pg_get_serial_sequence('listings', 'mod_seq'))`,
      updatedAt: ctx.now,
    })
    .where(eq(listings.id, row.id))
    .returning();
  return updated;
}
