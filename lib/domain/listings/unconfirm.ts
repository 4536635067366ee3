import { and, eq, isNull, lt } from "drizzle-orm";
import { listings } from "@/db/schema";
import { withTransaction, type ServiceContext, type StaffActor } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { lockAnyListing } from "./locking";
import { updateListing } from "./store";

export const confirmationDays = 30;

/**
 * Active listings not confirmed for 30 days become `unconfirmed`; a job runs this hourly. A listing
 * another write holds (`listing_busy`) or deleted since it was found is left to the next run; any
 * other failure, a database fault among them, fails the run.
 */
export async function unconfirmStaleListings({ ctx }: { ctx: ServiceContext<StaffActor> }): Promise<{ unconfirmed: number }> {
  const cutoff = new Date(ctx.now.getTime() - confirmationDays * 86_400_000);
  const stale = await ctx.db
    .select({ code: listings.code })
    .from(listings)
    .where(and(eq(listings.status, "active"), isNull(listings.deletedAt), lt(listings.confirmedAt, cutoff)))
    .limit(500);
  let unconfirmed = 0;
  for (const { code } of stale) {
    try {
      // Each listing in a transaction of its own: a refused lock ends the transaction it is asked in.
      await withTransaction(ctx, async (tx) => {
        const { row } = await lockAnyListing(tx, code);
        if (row.status !== "active" || !row.confirmedAt || row.confirmedAt >= cutoff) return;
        await updateListing(tx, row, { status: "unconfirmed" });
        unconfirmed++;
      });
    } catch (error) {
      if (!leftForLater(error)) throw error;
    }
  }
  return { unconfirmed };
}

/** The two refusals of a listing's lock that say nothing is wrong: the next run takes the listing up. */
const leftForLater = (error: unknown): boolean =>
  error instanceof AppError && (error.code === "listing_busy" || error.code === "not_found");
