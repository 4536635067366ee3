import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import { listings } from "@/db/schema";
import type { AccountActor, ServiceContext, TransactionContext } from "@/lib/base/context";
import { eventTypes } from "@/lib/domain/events";
import { transition } from "./internal/transition";
import { lockListing } from "./locking";

/** An active listing of the account that has an `external_ref`: what a full import may withdraw. */
export interface SyncedListing {
  code: string;
  externalRef: string;
}

/** The account's own active listings with a ref, in ref order (a full import's inventory). */
export async function activeListingsWithRef(ctx: ServiceContext, accountId: string): Promise<SyncedListing[]> {
  const rows = await ctx.db
    .select({ code: listings.code, externalRef: listings.externalRef })
    .from(listings)
    .where(
      and(eq(listings.accountId, accountId), eq(listings.status, "active"), isNull(listings.deletedAt), isNotNull(listings.externalRef)),
    )
    .orderBy(asc(listings.externalRef));
  return rows as SyncedListing[];
}

/**
 * Pauses an active listing a full import's file no longer holds, as `POST /listings/{code}/pause`
 * would (`listing.paused`), remembering the import: false when it is no longer active.
 */
export async function withdrawByFeed(tx: TransactionContext<AccountActor>, input: { code: string; importId: string }): Promise<boolean> {
  const listed = await lockListing(tx, input.code);
  if (listed.row.status !== "active") return false;
  await transition(tx, listed, { status: "paused", withdrawnByImport: input.importId }, eventTypes.paused);
  return true;
}

/**
 * Resumes a listing a full import withdrew, once a later full import holds its ref again
 * (`listing.reactivated`); one paused by hand stays paused. True when it was resumed.
 */
export async function resumeFromFeed(tx: TransactionContext<AccountActor>, input: { code: string }): Promise<boolean> {
  const listed = await lockListing(tx, input.code);
  if (listed.row.status !== "paused" || listed.row.withdrawnByImport === null) return false;
  await transition(tx, listed, { status: "active" }, eventTypes.reactivated);
  return true;
}
