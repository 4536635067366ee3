import { z } from "zod";
import { listingEnvelopeSchema, listingItemSchema } from "@/lib/domain/listings/schemas";
import { listingWriteSchema } from "@/lib/domain/listings/validation";
import { defineRoute } from "@/lib/adapters/http/route";
import { codeParams, etagHeader, ifMatchHeaders, listingsTag, stateNote } from "../../parameters";

export const catalogListingRoute = defineRoute({
  method: "GET",
  path: "/listings/{code}",
  operationId: "getCatalogListing",
  summary: "One catalog listing",
  tags: ["Catalog"],
  permission: "any key",
  params: codeParams,
  responses: { 200: { description: "An active listing.", schema: z.object({ data: listingItemSchema }) } },
  errors: [404],
});

export const editListingRoute = defineRoute({
  method: "PATCH",
  path: "/listings/{code}",
  operationId: "editListing",
  summary: "Edit a listing (JSON Merge Patch)",
  description: `\`application/merge-patch+json\` or \`application/json\`. Unpublished listings (\`draft\`, \`pending\`, \`rejected\`) change at once (200; a rejected listing goes back to \`pending\`). Published ones (\`active\`, \`paused\`, \`unconfirmed\`) keep their live version and hold the edit for moderation (202, \`moderation.edit_pending\`); editing an \`unconfirmed\` listing confirms it (\`listing.published\`). A patch that changes nothing writes nothing and answers 200 with \`X-Service-Unchanged: true\`. ${stateNote}`,
  tags: listingsTag,
  permission: "listings:write",
  params: codeParams,
  headers: ifMatchHeaders,
  body: {
    schema: listingWriteSchema.partial(),
    types: ["application/merge-patch+json", "application/json"],
    example: {
      price: 179000,
      negotiable: true,
      description: "Apartament luminos cu trei camere, renovat recent, la cinci minute de parc.",
    },
    checkedBy: "validateListing",
  },
  responses: {
    200: { description: "Edited directly (or unchanged).", schema: listingEnvelopeSchema, headers: etagHeader },
    202: { description: "Edit held for moderation.", schema: listingEnvelopeSchema, headers: etagHeader },
  },
  errors: [400, 404, 409, 412, 413, 415, 422],
});

export const deleteListingRoute = defineRoute({
  method: "DELETE",
  path: "/listings/{code}",
  operationId: "deleteListing",
  summary: "Delete a listing",
  description:
    "From any state; refused with 409 `listing_action_refused` while reports are open. Event `listing.withdrawn` with `by: owner`, `deleted: true`.",
  tags: listingsTag,
  permission: "listings:write",
  params: codeParams,
  responses: { 204: { description: "Deleted." } },
  errors: [404, 409],
});
