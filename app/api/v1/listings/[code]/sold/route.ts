// POST /listings/{code}/sold – mark an active or paused listing sold or rented (listing.sold)
import { keyedEndpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { detailOf } from "@/lib/listings/queries";
import { listingResponse, ownerOf } from "@/lib/listings/respond";
import { changeListingState } from "@/lib/listings/transitions";

const sold = keyedEndpoint<{ code: string }>("listings:write", async ({ ctx, principal, params }) => {
  const listed = await changeListingState({ ctx, input: { owner: ownerOf(principal), code: params.code, action: "sold" } });
  return listingResponse(detailOf(listed), []);
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: sold });
