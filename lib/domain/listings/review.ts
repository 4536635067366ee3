import { and, count, eq } from "drizzle-orm";
import { listingReports, listings, type ListingStatus } from "@/db/schema";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { isListingCode } from "./codes";
import { actingModerator, ownedBy } from "./internal/moderator";
import { findListed } from "./internal/queries";
import { notFound } from "@/lib/base/errors";

/** A listing as the moderation desk reviews it: the published document and the edit waiting on it. */
export interface ListingReview {
  code: string;
  status: ListingStatus;
  lister: string;
  /** The stored document (the published version of a listing with a waiting edit). */
  fields: Record<string, unknown>;
  /** The whole document an edit waiting for moderation would make it. */
  pendingFields: Record<string, unknown> | null;
  rejectionReason: string | null;
  rejectionCodes: string[];
  updatedAt: Date;
  openReports: number;
  /** The moderator's own or their agency's: the desk offers no decision on it. */
  own: boolean;
}

/** Any account's listing that is neither deleted nor a draft, for a moderator's review; anything else is `not_found`. */
export async function getListingForReview({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { code: string };
}): Promise<ListingReview> {
  const moderator = await actingModerator(ctx);
  if (!isListingCode(input.code)) throw notFound();
  const { row, lister } = await findListed(ctx.db, eq(listings.code, input.code));
  // A draft has not been submitted: it is its owner's alone until then.
  if (row.deletedAt || row.status === "draft") throw notFound();
  const [reports] = await ctx.db
    .select({ n: count() })
    .from(listingReports)
    .where(and(eq(listingReports.listingId, row.id), eq(listingReports.status, "open")));
  return {
    code: row.code,
    status: row.status,
    lister,
    fields: row.fields,
    pendingFields: row.pendingFields,
    rejectionReason: row.rejectionReason,
    rejectionCodes: row.rejectionCodes ?? [],
    updatedAt: row.updatedAt,
    openReports: reports.n,
    own: ownedBy(moderator, row),
  };
}
