import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { postgresError, sqlState } from "@/db/errors";
import { listings } from "@/db/schema";
import { AppError, notFound } from "@/lib/platform/errors";
import { isListingCode } from "./codes";
import { listedOf, listedQuery, type ListedRow } from "./queries";
import { visibleTo, type ListingOwner } from "./scope";

/**
 * Locks a listing for the write that runs in `tx`. Writes to one listing are serialized: a write
 * that finds another in progress does not wait, it gets 409 `listing_busy` and writes nothing.
 */
export async function lockListing(tx: Tx, code: string, owner: ListingOwner | null): Promise<ListedRow> {
  if (!isListingCode(code)) throw notFound();
  const condition = owner ? and(eq(listings.code, code), visibleTo(owner)) : eq(listings.code, code);
  try {
    // The lister comes with the lock, so a write answers with what it wrote without reading again.
    const [found] = await listedQuery(tx).where(condition).for("update", { of: listings, noWait: true });
    if (!found || found.row.deletedAt) throw notFound();
    return listedOf(found);
  } catch (error) {
    if (postgresError(error)?.code === sqlState.lockNotAvailable) throw new AppError("listing_busy");
    throw error;
  }
}
