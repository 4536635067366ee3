// GET /account/listings – the caller's listings (and colleagues' for agency owners and admins), any state, newest change first
import { endpoint } from "@/lib/platform/http/declared-endpoint";
import { accountListingsRoute } from "./declaration";
import { methods } from "@/lib/platform/http/methods";
import { json } from "@/lib/platform/http/respond";
import { collectionBody, pickFields } from "@/lib/platform/http/collection";
import { detailOf, itemOf } from "@/lib/domain/listings/internal/queries";
import { listAccountListings } from "@/lib/domain/listings/list";

const list = endpoint(accountListingsRoute, async ({ ctx, url, query }) => {
  const { fields, ...filters } = query;
  const { page } = await listAccountListings({ ctx, input: { query: filters } });
  const data = page.items.map((listed) => (fields ? pickFields(detailOf(listed), fields) : itemOf(listed)));
  return json(collectionBody(url, page, query.per_page, data));
});

export const { GET, POST, PUT, PATCH, DELETE } = methods(list);
