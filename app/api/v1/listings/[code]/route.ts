import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { catalogListingRoute, deleteListingRoute, editListingRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { json, noContent } from "@/lib/adapters/http/respond";
import { editListing } from "@/lib/domain/listings/edit";
import { getCatalogListing } from "@/lib/domain/listings/get";
import { listingResponse } from "@/lib/adapters/http/listing-response";
import { deleteListing } from "@/lib/domain/listings/delete";

// GET /listings/{code} – one active listing of the public catalog
const show = endpoint(catalogListingRoute, async ({ ctx, params }) =>
  json({ data: await getCatalogListing({ ctx, input: { code: params.code } }) }),
);

// PATCH /listings/{code} – edit as a JSON Merge Patch: 200 applied, 202 held for moderation
const edit = endpoint(editListingRoute, async ({ ctx, params, request, body }) => {
  const patch = await body();
  const outcome = await editListing({
    ctx,
    input: { code: params.code, patch, ifMatch: request.headers.get("if-match"), source: "api" },
  });
  return listingResponse(outcome.detail, outcome.warnings, {
    status: outcome.heldForModeration ? 202 : 200,
    headers: outcome.unchanged ? { "X-Service-Unchanged": "true" } : {},
  });
});

// DELETE /listings/{code} – delete a listing (204); refused while reports are open
const remove = endpoint(deleteListingRoute, async ({ ctx, params }) => {
  await deleteListing({ ctx, input: { code: params.code } });
  return noContent();
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(show, edit, remove);
