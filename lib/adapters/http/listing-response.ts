import { json } from "@/lib/adapters/http/respond";
import type { ListingWarning } from "@/lib/domain/listings/validation";

/**
 * The body of every listing write and of the detail read: `{ data: <detail>, warnings }`
 * with the `ETag` header equal to `data.etag`.
 */
export function listingResponse(
  detail: { etag: string },
  warnings: ListingWarning[],
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return json({ data: detail, warnings }, { status: init.status ?? 200, headers: { ...init.headers, ETag: detail.etag } });
}
