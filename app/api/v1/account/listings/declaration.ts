import { accountListingsQuery } from "@/lib/domain/listings/list";
import { z } from "zod";
import { listingCollectionSchema, listingDetailSchema, listingItemSchema } from "@/lib/domain/listings/schemas";
import { fieldsParameter } from "@/lib/adapters/http/collection";
import { defineRoute } from "@/lib/adapters/http/route";
import { listingsTag } from "../../parameters";

export const accountListingsRoute = defineRoute({
  method: "GET",
  path: "/account/listings",
  operationId: "listAccountListings",
  summary: "Your listings",
  description:
    "The caller's listings in any state (and colleagues' for agency owners and admins; agents see their own), newest change first. Items carry the fields up to `attribution`; with `fields` any member of the detail shape can be chosen.",
  tags: listingsTag,
  permission: "listings:read",
  // `fields` shapes the answer, so it is HTTP's, beside the service's filters.
  query: accountListingsQuery.extend({ fields: fieldsParameter }),
  responses: {
    200: {
      description: "A page of listings: items in the list shape, or with `fields` only the members chosen.",
      schema: listingCollectionSchema(z.union([listingItemSchema, listingDetailSchema.partial()]), "AccountListingsPage"),
    },
  },
  errors: [422],
});
