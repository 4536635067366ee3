import { listingEnvelopeSchema } from "@/lib/domain/listings/schemas";
import { defineRoute } from "@/lib/adapters/http/route";
import { codeParams, etagHeader, listingsTag, stateNote } from "../../../parameters";

export const resumeListingRoute = defineRoute({
  method: "POST",
  path: "/listings/{code}/resume",
  operationId: "resumeListing",
  summary: "Resume a paused listing",
  description: `A paused listing becomes active without new moderation (\`listing.reactivated\`); 404 when not paused. ${stateNote}`,
  tags: listingsTag,
  permission: "listings:write",
  params: codeParams,
  responses: { 200: { description: "The listing after the change.", schema: listingEnvelopeSchema, headers: etagHeader } },
  errors: [404, 409],
});
