import { listingEnvelopeSchema } from "@/lib/domain/listings/schemas";
import { defineRoute } from "@/lib/adapters/http/route";
import { codeParams, etagHeader, listingsTag } from "../../../parameters";

export const accountListingRoute = defineRoute({
  method: "GET",
  path: "/account/listings/{code}",
  operationId: "getAccountListing",
  summary: "One of your listings",
  tags: listingsTag,
  permission: "listings:read",
  params: codeParams,
  responses: { 200: { description: "The listing.", schema: listingEnvelopeSchema, headers: etagHeader } },
  errors: [404],
});
