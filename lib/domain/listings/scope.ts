import { and, eq, isNull, or, type SQL } from "drizzle-orm";
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
  const own = eq(listings.accountId, owner.accountId);
  const manager = owner.agency && owner.agency.role !== "agent";
  const scope = manager ? or(own, eq(listings.agencyId, owner.agency!.id))! : own;
  return and(scope, isNull(listings.deletedAt))!;
}

/** The public catalog shows active listings only. */
export const publicScope = and(eq(listings.status, "active"), isNull(listings.deletedAt))!;
