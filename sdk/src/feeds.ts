import type { Client } from "openapi-fetch";
import { unwrap, unwrapEmpty } from "./errors.js";
import type { paths } from "./generated/openapi.js";
import { paginate } from "./pagination.js";
import type { WithResponse } from "./types.js";

type Schemas = import("./generated/openapi.js").components["schemas"];
export type Feed = Schemas["Feed"];
export type FeedInput = NonNullable<paths["/feeds"]["post"]["requestBody"]>["content"]["application/json"];

/**
 * `POST /feeds`, `GET /feeds`, `GET`, `DELETE /feeds/{id}` and `POST /feeds/{id}/pull`: addresses of
 * your listings' file that the service pulls on schedule and applies as imports (`feed_id` on each).
 */
export function feedsResource(raw: Client<paths>) {
  return {
    /** Registers a feed (201): `url` (https), `mode`, `max_withdrawals`, `interval_minutes` (15–10 080, default 60). */
    create: (input: FeedInput): Promise<WithResponse<{ data: Feed }>> => unwrap(raw.POST("/feeds", { body: input })),

    /** Every feed of the account, newest first, page after page. */
    list: (perPage?: number): AsyncGenerator<Feed, void, undefined> =>
      paginate(async (cursor) => {
        const { data, meta } = await unwrap(raw.GET("/feeds", { params: { query: { cursor, per_page: perPage } } }));
        return { items: data, next: meta.next_cursor };
      }),

    /** `GET /feeds/{id}`: the feed with `last_pull`, `pulling` and `failing_since`. */
    get: (id: string): Promise<WithResponse<{ data: Feed }>> => unwrap(raw.GET("/feeds/{id}", { params: { path: { id } } })),

    /** `POST /feeds/{id}/pull`: a pull now (202); 409 `feed_pull_in_progress` while one or its import runs. */
    pull: (id: string): Promise<WithResponse<{ data: Feed }>> => unwrap(raw.POST("/feeds/{id}/pull", { params: { path: { id } } })),

    /** `DELETE /feeds/{id}`: no more pulls; its imports stay. */
    delete: (id: string) => unwrapEmpty(raw.DELETE("/feeds/{id}", { params: { path: { id } } })),
  };
}

export type FeedsResource = ReturnType<typeof feedsResource>;
