import { z } from "zod";
import { feedInput, feedSchema } from "@/lib/domain/feeds/fields";
import { feedListQuery } from "@/lib/domain/feeds/list-feeds";
import { maxFeedsPerAccount } from "@/lib/domain/feeds/limits";
import { defineRoute } from "@/lib/adapters/http/route";
import { listingsTag } from "../parameters";

export const feedEnvelopeSchema = z.object({ data: feedSchema }).meta({ id: "FeedEnvelope" });

export const feedPageSchema = z
  .object({
    data: z.array(feedSchema),
    links: z.object({ first: z.string(), next: z.string().nullable() }),
    meta: z.object({ path: z.string(), per_page: z.number().int(), next_cursor: z.string().nullable() }),
  })
  .meta({ id: "FeedsPage" });

export const createFeedRoute = defineRoute({
  method: "POST",
  path: "/feeds",
  operationId: "createFeed",
  summary: "Register a feed URL",
  description: [
    "A file of your listings the service pulls on schedule and applies as a bulk import: NDJSON (one `PUT /listings/ref/{ref}` body a line) or a JSON array of such bodies, told apart by the media type (`application/json` is an array) or the first character (`[`). The limits are the import's: 10 MiB, 10,000 lines.",
    "Each pull is a conditional GET (`If-None-Match` / `If-Modified-Since` from the last file imported): a `304` costs nothing and imports nothing; a new file becomes an import with `feed_id` set, whose report is `GET /listings/imports/{id}` and `import.completed`. The imports are written as the key that registered the feed: once it is revoked or expired, the pulls fail.",
    `The first pull is due at once, then every \`interval_minutes\`. At most ${maxFeedsPerAccount} feeds per account (409 \`limit_reached\`). 422 at \`/url\` for an address that is not \`https://\` on a public host.`,
  ].join("\n\n"),
  tags: listingsTag,
  permission: "listings:write",
  body: {
    schema: feedInput,
    example: { url: "https://crm.example.com/export/listings.ndjson", mode: "full", max_withdrawals: 20, interval_minutes: 60 },
  },
  responses: {
    201: {
      description: "Registered.",
      schema: feedEnvelopeSchema,
      headers: { Location: { description: "`/api/v1/feeds/{id}`", schema: { type: "string" } } },
    },
  },
  errors: [400, 409, 413, 415, 422],
});

export const listFeedsRoute = defineRoute({
  method: "GET",
  path: "/feeds",
  operationId: "listFeeds",
  summary: "Your feed URLs",
  description:
    "The account's feeds, newest first, each with its last pull and `failing_since`. While `links.next` is not null, it (or `cursor` = `meta.next_cursor`) gives the next page.",
  tags: listingsTag,
  permission: "listings:read",
  query: feedListQuery,
  responses: { 200: { description: "A page of feeds.", schema: feedPageSchema } },
  errors: [422],
});
