import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { listings } from "@/db/schema";
import { AppError, notFound } from "@/lib/errors";
import { isListingCode } from "./codes";
import type { ListingRow } from "./read-shape";
import { visibleTo, type ListingOwner } from "./scope";

const lockNotAvailable = "55P03";

function isLockNotAvailable(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === lockNotAvailable) return true;
  }
  return false;
}

/**
 * Locks a listing for the write that runs in `tx`. Writes to one listing are serialized: a write
 * that finds another in progress does not wait, it gets 409 `listing_busy` and writes nothing.
 */
export async function lockListing(tx: Tx, code: string, owner: ListingOwner | null): Promise<ListingRow> {
  if (!isListingCode(code)) throw notFound();
  const condition = owner ? and(eq(listings.code, code), visibleTo(owner)) : eq(listings.code, code);
  try {
    const [row] = await tx.select().from(listings).where(condition).for("update", { noWait: true });
    if (!row || row.deletedAt) throw notFound();
    return row;
  } catch (error) {
    if (isLockNotAvailable(error)) throw new AppError("listing_busy");
    throw error;
  }
}
