// GET /account/listings/{code} – one of the caller's listings in any state, with status, moderation, media and etag
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { accountListingRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { getAccountListing } from "@/lib/domain/listings/get";
import { listingResponse } from "@/lib/adapters/http/listing-response";

const show = endpoint(accountListingRoute, async ({ ctx, params }) =>
  listingResponse(await getAccountListing({ ctx, input: { code: params.code } }), []),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(show);
