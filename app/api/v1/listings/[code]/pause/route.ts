// POST /listings/{code}/pause – pause an active listing (listing.paused)
import { keyedEndpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { listingResponse, ownerOf, writtenListing } from "@/lib/listings/respond";
import { changeListingState } from "@/lib/listings/transitions";

const pause = keyedEndpoint<{ code: string }>("listings:write", async ({ ctx, principal, params }) => {
  const row = await changeListingState({ ctx, input: { owner: ownerOf(principal), code: params.code, action: "pause" } });
  return listingResponse(await writtenListing(ctx.database.db, row), []);
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: pause });
