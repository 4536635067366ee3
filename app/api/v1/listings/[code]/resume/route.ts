// POST /listings/{code}/resume – a paused listing becomes active again without moderation (listing.reactivated); 404 when not paused
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { resumeListingRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { listingResponse } from "@/lib/adapters/http/listing-response";
import { changeListingState } from "@/lib/domain/listings/change-state";

const resume = endpoint(resumeListingRoute, async ({ ctx, params }) => {
  const detail = await changeListingState({ ctx, input: { code: params.code, action: "resume" } });
  return listingResponse(detail, []);
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(resume);
