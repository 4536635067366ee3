import { listingEnvelopeSchema } from "@/lib/domain/listings/schemas";
import { defineRoute } from "@/lib/adapters/http/route";
import { etagHeader, listingsTag, refParams } from "../../../../parameters";

export const accountListingByRefRoute = defineRoute({
  method: "GET",
  path: "/account/listings/ref/{ref}",
  operationId: "getAccountListingByRef",
  summary: "One of your listings by your own id",
  tags: listingsTag,
  permission: "listings:read",
  params: refParams,
  responses: { 200: { description: "The listing.", schema: listingEnvelopeSchema, headers: etagHeader } },
  errors: [404],
});
