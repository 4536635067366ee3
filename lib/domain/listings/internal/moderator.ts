import { and, eq, or, sql, type SQL } from "drizzle-orm";
import { accounts, agencyMembers, listings } from "@/db/schema";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";

/** Whose listings a moderator may not judge: their own account's and their agency's. */
export interface ModeratorScope {
  accountId: string;
  agencyId: string | null;
}

/**
 * The moderator acting, read again from their account: a session outlives a moderator role taken
 * away, so every moderation read and decision checks it (`forbidden` otherwise). The operator, jobs
 * and the seed are not moderators and have no listings of their own: null.
 */
export async function actingModerator(ctx: ServiceContext<StaffActor>): Promise<ModeratorScope | null> {
  if (ctx.actor.kind !== "moderator") return null;
  const [found] = await ctx.db
    .select({ id: accounts.id, agencyId: agencyMembers.agencyId })
    .from(accounts)
    .leftJoin(agencyMembers, eq(agencyMembers.accountId, accounts.id))
    .where(and(eq(accounts.id, ctx.actor.accountId), eq(accounts.isModerator, true), eq(accounts.active, true)));
  if (!found) throw new AppError("forbidden");
  return { accountId: found.id, agencyId: found.agencyId };
}

/** True when the listing is the moderator's own or their agency's. */
export const ownedBy = (moderator: ModeratorScope | null, listing: { accountId: string; agencyId: string | null }): boolean =>
  moderator !== null &&
  (listing.accountId === moderator.accountId || (moderator.agencyId !== null && listing.agencyId === moderator.agencyId));

/**
 * The SQL form of `ownedBy`, for reads that leave the moderator's own listings out. Never NULL (a
 * listing without an agency is simply not theirs), so `not(...)` keeps it.
 */
export const ownedCondition = (moderator: ModeratorScope): SQL =>
  moderator.agencyId === null
    ? eq(listings.accountId, moderator.accountId)
    : or(eq(listings.accountId, moderator.accountId), sql`${listings.agencyId} is not distinct from ${moderator.agencyId}`)!;

/** Someone else must judge it: a stable refusal the desk never offers (its buttons are not shown). */
export function refuseOwnListing(moderator: ModeratorScope | null, listing: { accountId: string; agencyId: string | null }): void {
  if (ownedBy(moderator, listing)) throw new AppError("listing_action_refused", { reason: "own_listing" });
}
