import { keysetCollectionBody } from "@/lib/adapters/http/collection";
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { createFeed } from "@/lib/domain/feeds/create-feed";
import { listFeeds } from "@/lib/domain/feeds/list-feeds";
import { createFeedRoute, listFeedsRoute } from "./declaration";

// POST /feeds – register a feed URL, pulled on schedule and applied as imports; 201 with the feed
const create = endpoint(createFeedRoute, async ({ ctx, body }) => {
  const feed = await createFeed({ ctx, input: { fields: await body() } });
  return json({ data: feed }, { status: 201, headers: { Location: `/api/v1/feeds/${feed.id}` } });
});

// GET /feeds – the account's feeds, newest first, a page at a time
const list = endpoint(listFeedsRoute, async ({ ctx, url, query }) => {
  const page = await listFeeds({ ctx, input: query });
  return json(keysetCollectionBody(url, page, query.per_page));
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(list, create);
