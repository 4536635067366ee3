import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { listings, type ListingStatus } from "@/db/schema";
import { toEur, type CurrencyRates } from "@/lib/domain/vocabulary";
import type { ListedRow } from "./queries";
import type { ListingRow } from "./read-shape";

/** Columns the catalog searches on, derived from the stored fields on every write. */
export function searchColumns(fields: Record<string, unknown>, rates: CurrencyRates) {
  const price = typeof fields.price === "number" ? fields.price : null;
  const currency = typeof fields.price_currency === "string" ? fields.price_currency : "EUR";
  const eur = price === null ? null : toEur(price, currency, rates);
  return {
    city: typeof fields.city === "string" ? fields.city.trim().toLowerCase() : null,
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
}

/**
 * Writes a change to a locked listing: a new version (its ETag changes) and a new place in the
 * "last modified" order.
 */
/** The same listing after a write: the row changes, who lists it does not. */
export const rewritten = (listed: ListedRow, row: ListingRow): ListedRow => ({ ...listed, row, modSeq: row.modSeq });

export async function updateListing(
  tx: Tx,
  row: ListingRow,
  changes: ListingChanges,
  now: Date,
  rates?: CurrencyRates,
): Promise<ListingRow> {
  const derived = changes.fields && rates ? searchColumns(changes.fields, rates) : {};
  const [updated] = await tx
    .update(listings)
    .set({
      ...changes,
      ...derived,
      version: row.version + 1,
      modSeq: sql`nextval(pg_get_serial_sequence('listings', 'mod_seq'))`,
      updatedAt: now,
    })
    .where(eq(listings.id, row.id))
    .returning();
  return updated;
}
