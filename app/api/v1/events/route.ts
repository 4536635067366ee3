// GET /events – the caller's events, oldest first, paged with `after` (= `meta.next`)
import { listEvents, listEventsQuery } from "@/lib/domain/events";
import { keyedEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";
import { json } from "@/lib/platform/http/respond";
import { parseOrThrow } from "@/lib/platform/validation/zod";

const list = keyedEndpoint("listings:read", async ({ url, ctx, principal }) => {
  const query = parseOrThrow(listEventsQuery, Object.fromEntries(url.searchParams), "query");
  return json(await listEvents({ ctx, input: { accountId: principal.account.id, ...query } }));
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: list });
