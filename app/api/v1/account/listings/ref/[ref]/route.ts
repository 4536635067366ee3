// GET /account/listings/ref/{ref} – one of the caller's listings by the integrator's own id
import { keyedEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";
import { getAccountListingByRef } from "@/lib/domain/listings/get";
import { listingResponse } from "@/lib/platform/http/listing-response";

const show = keyedEndpoint<{ ref: string }>("listings:read", async ({ ctx, params }) =>
  listingResponse(await getAccountListingByRef({ ctx, input: { ref: params.ref } }), []),
);

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: show });
