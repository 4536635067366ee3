// GET /events – the caller's events, oldest first, paged with `after` (= `meta.next`)
import { listEvents, listEventsQuery } from "@/lib/events";
import { keyedEndpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/validation/zod";

const list = keyedEndpoint("listings:read", async ({ url, ctx, principal }) => {
  const query = parseOrThrow(listEventsQuery, Object.fromEntries(url.searchParams), "query");
  return json(await listEvents({ ctx, input: { accountId: principal.account.id, ...query } }));
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: list });
