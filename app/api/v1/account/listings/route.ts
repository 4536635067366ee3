// GET /account/listings – the caller's listings (and colleagues' for agency owners and admins), any state, newest change first
import { keyedEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";
import { json } from "@/lib/platform/http/respond";
import { collectionBody, parseFields, pickFields } from "@/lib/platform/http/collection";
import { detailOf, itemOf } from "@/lib/domain/listings/internal/queries";
import { listAccountListings } from "@/lib/domain/listings/list";

const list = keyedEndpoint("listings:read", async ({ ctx, url }) => {
  const fields = parseFields(url.searchParams.get("fields") ?? undefined);
  const { query, page } = await listAccountListings({
    ctx,
    input: { query: Object.fromEntries(url.searchParams) },
  });
  const data = page.items.map((listed) => (fields ? pickFields(detailOf(listed), fields) : itemOf(listed)));
  return json(collectionBody(url, page, query.per_page, data));
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: list });
