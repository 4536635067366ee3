import { and, count, eq, lte } from "drizzle-orm";
import { listings, listingStatuses, type ListingStatus } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { visibleTo } from "./scope";
import { reminderDaysBefore } from "./remind-confirmation";
import { confirmationDays } from "./unconfirm";

export interface ListingCounts {
  byStatus: Record<ListingStatus, number>;
  /** Active listings in their last 3 days before `unconfirmed` (those the reminder is mailed about). */
  confirmationDue: number;
}

/** How many of the listings the account may manage are in each state: My listings' filter and notices. */
export async function countAccountListings({ ctx }: { ctx: ServiceContext<AccountActor> }): Promise<ListingCounts> {
  const scope = visibleTo(ctx.actor);
  const dueBefore = new Date(ctx.now.getTime() - (confirmationDays - reminderDaysBefore) * 86_400_000);
  const [rows, [due]] = await Promise.all([
    ctx.db.select({ status: listings.status, n: count() }).from(listings).where(scope).groupBy(listings.status),
    ctx.db
      .select({ n: count() })
      .from(listings)
      .where(and(scope, eq(listings.status, "active"), lte(listings.confirmedAt, dueBefore))),
  ]);
  const byStatus = Object.fromEntries(listingStatuses.map((status) => [status, 0])) as Record<ListingStatus, number>;
  for (const row of rows) byStatus[row.status] = row.n;
  return { byStatus, confirmationDue: due.n };
}
