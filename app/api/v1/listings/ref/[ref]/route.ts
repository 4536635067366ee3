// PUT /listings/ref/{ref} – create (201) or update as merge patch (200/202) by the integrator's own id
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { upsertListingByRefRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { listingResponse } from "@/lib/adapters/http/listing-response";
import { upsertListingByRef } from "@/lib/domain/listings/upsert-by-ref";

const upsert = endpoint(upsertListingByRefRoute, async ({ ctx, params, request, body }) => {
  const outcome = await upsertListingByRef({
    ctx,
    input: {
      ref: params.ref,
      body: await body(),
      ifMatch: request.headers.get("if-match"),
    },
  });
  const headers: Record<string, string> = outcome.unchanged ? { "X-Service-Unchanged": "true" } : {};
  if (outcome.created) headers.Location = `/api/v1/account/listings/${outcome.listed.row.code}`;
  const status = outcome.created ? 201 : outcome.heldForModeration ? 202 : 200;
  return listingResponse(outcome.detail, outcome.warnings, { status, headers });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(upsert);
