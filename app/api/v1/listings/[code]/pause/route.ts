// POST /listings/{code}/pause – pause an active listing (listing.paused)
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { pauseListingRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { listingResponse } from "@/lib/adapters/http/listing-response";
import { changeListingState } from "@/lib/domain/listings/change-state";

const pause = endpoint(pauseListingRoute, async ({ ctx, params }) => {
  const detail = await changeListingState({ ctx, input: { code: params.code, action: "pause" } });
  return listingResponse(detail, []);
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(pause);
