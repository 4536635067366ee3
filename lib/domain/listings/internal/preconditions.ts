import { AppError } from "@/lib/base/errors";
import { listingEtag, type ListingRow } from "@/lib/domain/listings/read-shape";

/**
 * `If-Match` as DESIGN §4 decides: the strong tag verbatim or without quotes, a list of tags, or `*`.
 * Weak tags never match. Called after the listing was found, so 404 wins over 412.
 */
export function checkIfMatch(row: ListingRow, header: string | null): void {
  if (header === null) return;
  const current = listingEtag(row);
  const tags = header
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  const matches = tags.some((tag) => {
    if (tag === "*") return true;
    if (tag.startsWith("W/")) return false;
    const quoted = tag.startsWith('"') ? tag : `"${tag}"`;
    return quoted === current;
  });
  if (!matches) throw new AppError("listing_changed_meanwhile");
}
