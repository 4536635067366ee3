// POST /listings/{code}/sold – mark an active or paused listing sold or rented (listing.sold)
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { markListingSoldRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { listingResponse } from "@/lib/adapters/http/listing-response";
import { changeListingState } from "@/lib/domain/listings/change-state";

const sold = endpoint(markListingSoldRoute, async ({ ctx, params }) => {
  const detail = await changeListingState({ ctx, input: { code: params.code, action: "sold" } });
  return listingResponse(detail, []);
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(sold);
