import { z } from "zod";
import { eventBodySchema, listEventsQuery } from "@/lib/domain/events";
import { defineRoute } from "@/lib/adapters/http/route";

export const eventsRoute = defineRoute({
  method: "GET",
  path: "/events",
  operationId: "listEvents",
  summary: "Events",
  description:
    "Events of the last 35 days, oldest first. While `meta.next` is not null, request the next page with `after` = `meta.next`. " +
    "With `wait` (long polling), a request that finds no event newer than `after` waits up to that many seconds for one to be committed.",
  tags: ["Events"],
  permission: "listings:read",
  query: listEventsQuery,
  responses: {
    200: {
      description: "A page of events.",
      schema: z.object({ data: z.array(eventBodySchema), meta: z.object({ next: z.string().nullable() }) }),
    },
  },
  errors: [422],
});
