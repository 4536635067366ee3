import { withIdempotency } from "@/lib/http/idempotency";
import { keyedEndpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { collectionBody } from "@/lib/listings/collection";
import { createListing } from "@/lib/listings/create-listing";
import { itemOf, listCatalog } from "@/lib/listings/queries";
import { listingResponse, ownerOf, writtenListing } from "@/lib/listings/respond";

// GET /listings – the public catalog: active listings, any valid key
const catalog = keyedEndpoint(null, async ({ ctx, url }) => {
  const { query, page } = await listCatalog({ ctx, input: { query: Object.fromEntries(url.searchParams) } });
  return json(collectionBody(url, page, query.per_page, page.items.map(itemOf)));
});

// POST /listings – create a listing; it goes to moderation (201, Location, ETag, Idempotency-Key)
const create = keyedEndpoint("listings:write", async ({ ctx, principal, request, body }) => {
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
      const { row, warnings } = await createListing({ ctx, input: { owner: ownerOf(principal), body: payload, source: "api" } });
      const detail = await writtenListing(ctx.database.db, row);
      return listingResponse(detail, warnings, { status: 201, headers: { Location: `/api/v1/account/listings/${row.code}` } });
    },
  );
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: catalog, POST: create });
