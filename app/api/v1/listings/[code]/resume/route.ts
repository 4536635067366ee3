// POST /listings/{code}/resume – a paused listing becomes active again without moderation (listing.reactivated); 404 when not paused
import { keyedEndpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { detailOf } from "@/lib/listings/queries";
import { listingResponse, ownerOf } from "@/lib/listings/respond";
import { changeListingState } from "@/lib/listings/transitions";

const resume = keyedEndpoint<{ code: string }>("listings:write", async ({ ctx, principal, params }) => {
  const listed = await changeListingState({ ctx, input: { owner: ownerOf(principal), code: params.code, action: "resume" } });
  return listingResponse(detailOf(listed), []);
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: resume });
