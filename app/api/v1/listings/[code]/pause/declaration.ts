import { listingEnvelopeSchema } from "@/lib/domain/listings/schemas";
import { defineRoute } from "@/lib/adapters/http/route";
import { codeParams, etagHeader, listingsTag, stateNote } from "../../../parameters";

export const pauseListingRoute = defineRoute({
  method: "POST",
  path: "/listings/{code}/pause",
  operationId: "pauseListing",
  summary: "Pause a listing",
  description: `Pause an active listing (\`listing.paused\`). ${stateNote}`,
  tags: listingsTag,
  permission: "listings:write",
  params: codeParams,
  responses: { 200: { description: "The listing after the change.", schema: listingEnvelopeSchema, headers: etagHeader } },
  errors: [404, 409],
});
