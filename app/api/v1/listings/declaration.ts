import { z } from "zod";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { catalogQuery } from "@/lib/domain/listings/list";
import { listingCollectionSchema, listingEnvelopeSchema, listingItemSchema } from "@/lib/domain/listings/schemas";
import { sourceTimeSchema } from "@/lib/domain/listings/source-time";
import { listingWriteSchema } from "@/lib/domain/listings/validation";
import { idempotencyKeyMaxLength } from "@/lib/adapters/http/idempotency";
import { defineRoute } from "@/lib/adapters/http/route";
import { etagHeader, listingsTag } from "../parameters";

export const catalogRoute = defineRoute({
  method: "GET",
  path: "/listings",
  operationId: "listCatalog",
  summary: "Public catalog",
  description: "Active listings only, newest change first, in the list shape. Prices compare in euros.",
  tags: ["Catalog"],
  permission: "any key",
  query: catalogQuery,
  responses: { 200: { description: "A page of listings.", schema: listingCollectionSchema(listingItemSchema, "CatalogPage") } },
  errors: [422],
});

export const createListingRoute = defineRoute({
  method: "POST",
  path: "/listings",
  operationId: "createListing",
  summary: "Create a listing",
  description:
    "The new listing goes to moderation (`pending`). `source_updated_at` (RFC 3339), when sent, is stored beside the fields and shown in the detail: a later write by ref that sends an older one is refused (409 `stale_source`). `Idempotency-Key` (up to 64 characters, per key, 10 minutes): the same key and body replays the first 2xx answer with `Idempotent-Replayed: true`; another body gives 422 `idempotency_key_reused`; a retry while the first runs gives 409 `idempotency_key_in_use`. A request refused with a 4xx (or failing with a 5xx) keeps no record: the key is released, so the corrected body can be sent with the same key.",
  tags: listingsTag,
  permission: "listings:write",
  headers: z.object({ "idempotency-key": z.string().min(1).max(idempotencyKeyMaxLength).optional() }),
  body: { schema: listingWriteSchema.and(sourceTimeSchema), example: exampleApartment, checkedBy: "validateListing" },
  responses: {
    201: {
      description: "Created.",
      schema: listingEnvelopeSchema,
      headers: { ...etagHeader, Location: { description: "`/api/v1/account/listings/{code}`", schema: { type: "string" } } },
    },
  },
  errors: [400, 409, 413, 415, 422],
});
