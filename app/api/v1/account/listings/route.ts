// GET /account/listings – the caller's listings (and colleagues' for agency owners and admins), any state, newest change first
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { accountListingsRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { collectionBody, pickFields } from "@/lib/adapters/http/collection";
import { detailOf, itemOf } from "@/lib/domain/listings/read-shape";
import { listAccountListings } from "@/lib/domain/listings/list";

const list = endpoint(accountListingsRoute, async ({ ctx, url, query }) => {
  const { fields, ...filters } = query;
  const { page } = await listAccountListings({ ctx, input: { query: filters } });
  const data = page.items.map((listed) => (fields ? pickFields(detailOf(listed), fields) : itemOf(listed)));
  return json(collectionBody(url, page, query.per_page, data));
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(list);
