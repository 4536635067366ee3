// GET /account/listings/ref/{ref} – one of the caller's listings by the integrator's own id
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { accountListingByRefRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { getAccountListingByRef } from "@/lib/domain/listings/get";
import { listingResponse } from "@/lib/adapters/http/listing-response";

const show = endpoint(accountListingByRefRoute, async ({ ctx, params }) =>
  listingResponse(await getAccountListingByRef({ ctx, input: { ref: params.ref } }), []),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(show);
