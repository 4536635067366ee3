import type { Client } from "openapi-fetch";
import { unwrap } from "./errors.js";
import type { paths } from "./generated/openapi.js";
import { paginate } from "./pagination.js";
import type { Event, WithResponse } from "./types.js";

export type ListEventsQuery = NonNullable<paths["/events"]["get"]["parameters"]["query"]>;
/** The body of `POST /sandbox/events`: the event type to fire and the listing's code. */
export type SandboxEventTrigger = paths["/sandbox/events"]["post"]["requestBody"]["content"]["application/json"];

/** `GET /events`: the events of the last 35 days, oldest first, in the form of the webhook bodies; the sandbox's trigger. */
export function eventsResource(raw: Client<paths>) {
  const page = (query: ListEventsQuery) => unwrap(raw.GET("/events", { params: { query } }));
  return {
    /**
     * Every event after `after` (an event id; without it from the oldest kept), page after page:
     * requests the next page with `after` equal to `meta.next` until it is null. Keep the id of the
     * last event processed and pass it as `after` to resume.
     *
     * With `wait` (1–30 seconds) the iteration does not end: at the end of the stream it long-polls,
     * each request waiting up to `wait` seconds for the next event, and yields events as they are
     * committed, until the loop breaks (after the request in progress, at most `wait` seconds).
     */
    list: (query: ListEventsQuery = {}): AsyncGenerator<Event, void, undefined> =>
      query.wait === undefined
        ? paginate(async (cursor) => {
            const { data, meta } = await page({ ...query, after: cursor ?? query.after });
            return { items: data, next: meta.next };
          })
        : follow(page, query),

    /**
     * Sandbox only: `POST /sandbox/events`, an event of one of your listings fired as the product
     * would (202), delivered to your subscribed webhooks: `{ data: event }`, whose `id` is the deliveries' `webhook-id`.
     */
    trigger: (body: SandboxEventTrigger): Promise<WithResponse<{ data: Event }>> => unwrap(raw.POST("/sandbox/events", { body })),
  };
}

/** Events as they come: each page after the last event seen, an empty one (the wait ended without an event) asked again. */
async function* follow(
  page: (query: ListEventsQuery) => Promise<{ data: Event[] }>,
  query: ListEventsQuery,
): AsyncGenerator<Event, void, undefined> {
  let after = query.after;
  for (;;) {
    const { data } = await page({ ...query, after });
    yield* data;
    if (data.length > 0) after = data[data.length - 1].id;
  }
}

export type EventsResource = ReturnType<typeof eventsResource>;
