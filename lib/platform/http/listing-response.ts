import { json } from "@/lib/platform/http/respond";
import type { ListingWarning } from "@/lib/domain/listings/validation";
import { detailOf, findListed } from "@/lib/domain/listings/internal/queries";
import type { ListingRow } from "@/lib/domain/listings/internal/read-shape";
import type { Handle } from "@/db";
import { eq } from "drizzle-orm";
import { listings } from "@/db/schema";

/**
 * The body of every listing write and of the detail read (DESIGN §4): `{ data: <detail>, warnings }`
 * with the `ETag` header equal to `data.etag`.
 */
export function listingResponse(
  detail: { etag: string },
  warnings: ListingWarning[],
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return json({ data: detail, warnings }, { status: init.status ?? 200, headers: { ...init.headers, ETag: detail.etag } });
}

/** Reads a listing just created, with its lister, for the response body. */
export async function writtenListing(db: Handle, row: ListingRow) {
  return detailOf(await findListed(db, eq(listings.id, row.id)));
}
