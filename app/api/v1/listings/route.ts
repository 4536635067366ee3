import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { catalogRoute, createListingRoute } from "./declaration";
import { withIdempotency } from "@/lib/adapters/http/idempotency";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { collectionBody } from "@/lib/adapters/http/collection";
import { createListing } from "@/lib/domain/listings/create";
import { itemOf } from "@/lib/domain/listings/read-shape";
import { listCatalog } from "@/lib/domain/listings/list";
import { listingResponse } from "@/lib/adapters/http/listing-response";

// GET /listings – the public catalog: active listings, any valid key
const catalog = endpoint(catalogRoute, async ({ ctx, url, query }) => {
  const { page } = await listCatalog({ ctx, input: { query } });
  return json(collectionBody(url, page, query.per_page, page.items.map(itemOf)));
});

// POST /listings – create a listing; it goes to moderation (201, Location, ETag, Idempotency-Key)
const create = endpoint(createListingRoute, async ({ ctx, principal, request, body }) => {
  const payload = await body();
  return withIdempotency(
    {
      database: ctx.database,
      keyId: principal.key.id,
      header: request.headers.get("idempotency-key"),
      method: "POST",
      path: "/listings",
      body: payload,
      now: ctx.now,
    },
    async () => {
      const { detail, warnings } = await createListing({ ctx, input: { body: payload, source: "api" } });
      const headers = { Location: `/api/v1/account/listings/${detail.code}` };
      return listingResponse(detail, warnings, { status: 201, headers });
    },
  );
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(catalog, create);
