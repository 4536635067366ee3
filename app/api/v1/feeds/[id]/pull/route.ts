import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { requestPull } from "@/lib/domain/feeds/request-pull";
import { pullFeedRoute } from "./declaration";

// POST /feeds/{id}/pull – queue a pull of the feed now; 202 with the feed
const pull = endpoint(pullFeedRoute, async ({ ctx, params }) => {
  return json({ data: await requestPull({ ctx, input: { id: params.id } }) }, { status: 202 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(pull);
