import { and, eq, type SQL } from "drizzle-orm";
import { postgresError, sqlState } from "@/db/errors";
import { listings } from "@/db/schema";
import type { AccountActor, StaffActor, TransactionContext } from "@/lib/base/context";
import { AppError, notFound } from "@/lib/base/errors";
import { isListingCode } from "./codes";
import { listedOf, listedQuery } from "./internal/queries";
import { type ListedRow } from "./read-shape";
import { visibleTo } from "./scope";

/**
 * Locks a listing the acting account may manage (its own, and its agency's for owners and admins)
 * for the write that runs in `ctx`'s transaction; any other listing answers like a missing one.
 */
export function lockListing(ctx: TransactionContext<AccountActor>, code: string): Promise<ListedRow> {
  return lock(ctx, code, and(eq(listings.code, code), visibleTo(ctx.actor))!);
}

/** Locks any account's listing: moderation, jobs and the operator only (the context's type says so). */
export function lockAnyListing(ctx: TransactionContext<StaffActor>, code: string): Promise<ListedRow> {
  return lock(ctx, code, eq(listings.code, code));
}

/**
 * Writes to one listing are serialized: a write that finds another in progress does not wait, it
 * gets 409 `listing_busy` and writes nothing.
 */
async function lock(ctx: TransactionContext, code: string, condition: SQL): Promise<ListedRow> {
  if (!isListingCode(code)) throw notFound();
  try {
    // The lister comes with the lock, so a write answers with what it wrote without reading again.
    const [found] = await listedQuery(ctx.db).where(condition).for("update", { of: listings, noWait: true });
    if (!found || found.row.deletedAt) throw notFound();
    return listedOf(found);
  } catch (error) {
    if (postgresError(error)?.code === sqlState.lockNotAvailable) throw new AppError("listing_busy");
    throw error;
  }
}
