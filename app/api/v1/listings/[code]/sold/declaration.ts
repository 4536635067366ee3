import { listingEnvelopeSchema } from "@/lib/domain/listings/schemas";
import { defineRoute } from "@/lib/adapters/http/route";
import { codeParams, etagHeader, listingsTag, stateNote } from "../../../parameters";

export const markListingSoldRoute = defineRoute({
  method: "POST",
  path: "/listings/{code}/sold",
  operationId: "markListingSold",
  summary: "Mark a listing sold or rented",
  description: `Mark an active or paused listing sold or rented (\`listing.sold\`). ${stateNote}`,
  tags: listingsTag,
  permission: "listings:write",
  params: codeParams,
  responses: { 200: { description: "The listing after the change.", schema: listingEnvelopeSchema, headers: etagHeader } },
  errors: [404, 409],
});
