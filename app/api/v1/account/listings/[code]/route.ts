// GET /account/listings/{code} – one of the caller's listings in any state, with status, moderation, media and etag
import { keyedEndpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { getAccountListing } from "@/lib/listings/queries";
import { listingResponse, ownerOf } from "@/lib/listings/respond";

const show = keyedEndpoint<{ code: string }>("listings:read", async ({ ctx, principal, params }) =>
  listingResponse(await getAccountListing({ ctx, input: { owner: ownerOf(principal), code: params.code } }), []),
);

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: show });
