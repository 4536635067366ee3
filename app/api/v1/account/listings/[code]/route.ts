// GET /account/listings/{code} – one of the caller's listings in any state, with status, moderation, media and etag
import { keyedEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";
import { getAccountListing } from "@/lib/domain/listings/get";
import { listingResponse, ownerOf } from "@/lib/platform/http/listing-response";

const show = keyedEndpoint<{ code: string }>("listings:read", async ({ ctx, principal, params }) =>
  listingResponse(await getAccountListing({ ctx, input: { owner: ownerOf(principal), code: params.code } }), []),
);

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: show });
