// POST /listings/{code}/sold – mark an active or paused listing sold or rented (listing.sold)
import { keyedEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";
import { detailOf } from "@/lib/domain/listings/internal/queries";
import { listingResponse } from "@/lib/platform/http/listing-response";
import { changeListingState } from "@/lib/domain/listings/change-state";

const sold = keyedEndpoint<{ code: string }>("listings:write", async ({ ctx, params }) => {
  const listed = await changeListingState({ ctx, input: { code: params.code, action: "sold" } });
  return listingResponse(detailOf(listed), []);
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: sold });
