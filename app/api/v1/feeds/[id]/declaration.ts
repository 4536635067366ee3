import { feedIdParams } from "@/lib/domain/feeds/fields";
import { defineRoute } from "@/lib/adapters/http/route";
import { listingsTag } from "../../parameters";
import { feedEnvelopeSchema } from "../declaration";

export const getFeedRoute = defineRoute({
  method: "GET",
  path: "/feeds/{id}",
  operationId: "getFeed",
  summary: "A feed URL",
  description:
    "The feed with its schedule (`next_pull_at`), whether a pull or its import is under way (`pulling`), its last pull (`last_pull`: when, `changed` with the import it made, `unchanged` on a `304`, or `failed` with the server's status and an `error_code`) and `failing_since`. Another account's feed answers 404.",
  tags: listingsTag,
  permission: "listings:read",
  params: feedIdParams,
  responses: { 200: { description: "The feed.", schema: feedEnvelopeSchema } },
  errors: [404],
});

export const deleteFeedRoute = defineRoute({
  method: "DELETE",
  path: "/feeds/{id}",
  operationId: "deleteFeed",
  summary: "Delete a feed URL",
  description:
    "Stops the feed's pulls. Its imports stay readable, with their `feed_id`; one still running runs to its end. Another account's feed answers 404.",
  tags: listingsTag,
  permission: "listings:write",
  params: feedIdParams,
  responses: { 204: { description: "Deleted." } },
  errors: [404],
});
