import { exampleApartment } from "@/lib/domain/listings/examples";
import { listingEnvelopeSchema } from "@/lib/domain/listings/schemas";
import { sourceTimeSchema } from "@/lib/domain/listings/source-time";
import { listingWriteSchema } from "@/lib/domain/listings/validation";
import { defineRoute } from "@/lib/adapters/http/route";
import { etagHeader, ifMatchHeaders, listingsTag, refParams } from "../../../parameters";

export const upsertListingByRefRoute = defineRoute({
  method: "PUT",
  path: "/listings/ref/{ref}",
  operationId: "upsertListingByRef",
  summary: "Create or update by your own id",
  description:
    "New `ref`: created as by `POST /listings` (201). Known `ref`: the body applies as a merge patch (200, or 202 for a published listing). The same body twice writes nothing and answers `X-Service-Unchanged: true`. `external_ref` in the body, when sent, must equal `ref`. `source_updated_at` (RFC 3339): when your system last changed the listing; older than the one the listing holds, nothing is written and the answer is 409 `stale_source` (equal or newer applies as usual).",
  tags: listingsTag,
  permission: "listings:write",
  params: refParams,
  // The ref names the listing being created: a malformed one is refused (422 in the path), not missing.
  invalidPath: "invalid",
  headers: ifMatchHeaders,
  body: {
    // Members, not an intersection: the MCP tool upsert_listing_by_ref advertises this body's properties.
    schema: listingWriteSchema.partial().extend(sourceTimeSchema.shape),
    types: ["application/json", "application/merge-patch+json"],
    example: exampleApartment,
    checkedBy: "validateListing",
  },
  responses: {
    200: { description: "Updated (or unchanged).", schema: listingEnvelopeSchema, headers: etagHeader },
    201: {
      description: "Created.",
      schema: listingEnvelopeSchema,
      headers: { ...etagHeader, Location: { description: "`/api/v1/account/listings/{code}`", schema: { type: "string" } } },
    },
    202: { description: "Edit held for moderation.", schema: listingEnvelopeSchema, headers: etagHeader },
  },
  errors: [400, 409, 412, 413, 415, 422],
});
