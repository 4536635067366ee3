// POST /listings/{code}/pause – pause an active listing (listing.paused)
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { pauseListingRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { detailOf } from "@/lib/domain/listings/read-shape";
import { listingResponse } from "@/lib/adapters/http/listing-response";
import { changeListingState } from "@/lib/domain/listings/change-state";

const pause = endpoint(pauseListingRoute, async ({ ctx, params }) => {
  const listed = await changeListingState({ ctx, input: { code: params.code, action: "pause" } });
  return listingResponse(detailOf(listed), []);
});

export const { GET, POST, PUT, PATCH, DELETE } = methods(pause);
