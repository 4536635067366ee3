import { AppError } from "@/lib/base/errors";
import { matchesIfMatch } from "@/lib/base/preconditions";
import { listingEtag, type ListingRow } from "@/lib/domain/listings/read-shape";

/**
 * `If-Match` on a listing (docs/api.md, Listings API): the strong tag verbatim or without quotes, a list
 * of tags, or `*`; weak tags never match. Called after the listing was found, so 404 wins over 412.
 */
export function checkIfMatch(row: ListingRow, header: string | null): void {
  if (header === null) return;
  if (!matchesIfMatch(header, listingEtag(row))) throw new AppError("listing_changed_meanwhile");
}
