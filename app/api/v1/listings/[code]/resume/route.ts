// POST /listings/{code}/resume – a paused listing becomes active again without moderation (listing.reactivated); 404 when not paused
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { resumeListingRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { detailOf } from "@/lib/domain/listings/read-shape";
import { listingResponse } from "@/lib/adapters/http/listing-response";
import { changeListingState } from "@/lib/domain/listings/change-state";

const resume = endpoint(resumeListingRoute, async ({ ctx, params }) => {
  const listed = await changeListingState({ ctx, input: { code: params.code, action: "resume" } });
  return listingResponse(detailOf(listed), []);
});

export const { GET, POST, PUT, PATCH, DELETE } = methods(resume);
