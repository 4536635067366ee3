import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { methods } from "@/lib/adapters/http/methods";
import { json, noContent } from "@/lib/adapters/http/respond";
import { deleteFeed } from "@/lib/domain/feeds/delete-feed";
import { getFeed } from "@/lib/domain/feeds/get-feed";
import { deleteFeedRoute, getFeedRoute } from "./declaration";

// GET /feeds/{id} – one of the account's feeds with its last pull
const get = endpoint(getFeedRoute, async ({ ctx, params }) => {
  return json({ data: await getFeed({ ctx, input: { id: params.id } }) });
});

// DELETE /feeds/{id} – stop and delete a feed (204); its imports stay
const remove = endpoint(deleteFeedRoute, async ({ ctx, params }) => {
  await deleteFeed({ ctx, input: { id: params.id } });
  return noContent();
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(get, remove);
