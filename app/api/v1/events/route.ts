// GET /events – the caller's events, oldest first, paged with `after` (= `meta.next`)
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { eventsRoute } from "./declaration";
import { listEvents } from "@/lib/domain/events";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";

const list = endpoint(eventsRoute, async ({ ctx, principal, query }) => {
  return json(await listEvents({ ctx, input: { accountId: principal.account.id, ...query } }));
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(list);
