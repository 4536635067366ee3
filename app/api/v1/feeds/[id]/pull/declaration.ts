import { feedIdParams } from "@/lib/domain/feeds/fields";
import { defineRoute } from "@/lib/adapters/http/route";
import { listingsTag } from "../../../parameters";
import { feedEnvelopeSchema } from "../../declaration";

export const pullFeedRoute = defineRoute({
  method: "POST",
  path: "/feeds/{id}/pull",
  operationId: "pullFeed",
  summary: "Pull a feed now",
  description:
    "Queues a pull of the feed at once, outside its schedule (which stays as it was), and answers 202 with the feed (`pulling: true`); read its `last_pull` when `pulling` is false again. 409 `feed_pull_in_progress` while a pull of it, or the import of its last file, is queued or running. Another account's feed answers 404.",
  tags: listingsTag,
  permission: "listings:write",
  params: feedIdParams,
  responses: { 202: { description: "Queued.", schema: feedEnvelopeSchema } },
  errors: [404, 409],
});
