// GET /account/listings/{code} – one of the caller's listings in any state, with status, moderation, media and etag
import { keyedEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";
import { getAccountListing } from "@/lib/domain/listings/get";
import { listingResponse } from "@/lib/platform/http/listing-response";

const show = keyedEndpoint<{ code: string }>("listings:read", async ({ ctx, params }) =>
  listingResponse(await getAccountListing({ ctx, input: { code: params.code } }), []),
);

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: show });
