import { and, eq, isNull, or, type Placeholder, type SQL } from "drizzle-orm";
import { listings } from "@/db/schema";
import type { AgencyMembership } from "@/lib/base/context";

/** Who acts on listings: an account, with its agency membership when it has one (an `AccountActor` is one). */
export interface ListingOwner {
  accountId: string;
  agency: AgencyMembership | null;
}

/**
 * Listings an owner may see and manage: their own, and for an agency owner or admin also their
 * colleagues'. Everything else answers exactly like a missing listing (404).
 */
export function visibleTo(owner: ListingOwner): SQL {
  return ownerScope(owner.accountId, managedAgency(owner));
}

/** The agency whose listings the owner manages besides their own: theirs when they own or administer it. */
export const managedAgency = (owner: ListingOwner): string | undefined =>
  owner.agency && owner.agency.role !== "agent" ? owner.agency.id : undefined;

/** `visibleTo`'s condition; its values may be `sql.placeholder`s, for statements built once. */
export function ownerScope(accountId: string | Placeholder, agencyId: string | Placeholder | undefined): SQL {
  const own = eq(listings.accountId, accountId);
  const scope = agencyId === undefined ? own : or(own, eq(listings.agencyId, agencyId))!;
  return and(scope, isNull(listings.deletedAt))!;
}

/** The public catalog shows active listings only. */
export const publicScope = and(eq(listings.status, "active"), isNull(listings.deletedAt))!;
