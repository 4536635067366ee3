import { and, count, eq, inArray } from "drizzle-orm";
import { listingReports, listings, type ListingStatus } from "@/db/schema";
import type { ListingRow } from "./read-shape";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { isListingCode } from "./codes";
import { actingModerator, ownedBy } from "./internal/moderator";
import { findLikelyDuplicates, subjectOf } from "./internal/duplicates";
import { findListed, listedOf, listedQuery } from "./internal/queries";
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
  /**
   * Other accounts' listings that very likely describe the same place (an agency and an owner
   * publishing one flat), oldest first, to compare side by side: each with its published document.
   */
  duplicates: ReviewedDuplicate[];
}

export interface ReviewedDuplicate {
  code: string;
  status: ListingStatus;
  lister: string;
  fields: Record<string, unknown>;
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
    duplicates: await otherAccountsDuplicates(ctx, row),
  };
}

async function otherAccountsDuplicates(ctx: ServiceContext<StaffActor>, row: ListingRow): Promise<ReviewedDuplicate[]> {
  const found = await findLikelyDuplicates(ctx.db, subjectOf(row), "other accounts");
  if (found.length === 0) return [];
  const listed = new Map(
    (
      await listedQuery(ctx.db).where(
        inArray(
          listings.id,
          found.map((duplicate) => duplicate.id),
        ),
      )
    ).map((result) => {
      const { row: other, lister } = listedOf(result);
      return [other.id, { code: other.code, status: other.status, lister, fields: other.fields }];
    }),
  );
  return found.flatMap((duplicate) => listed.get(duplicate.id) ?? []);
}
