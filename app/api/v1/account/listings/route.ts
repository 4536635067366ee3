// GET /account/listings – the caller's listings (and colleagues' for agency owners and admins), any state, newest change first
import { keyedEndpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { collectionBody, parseFields, pickFields } from "@/lib/listings/collection";
import { detailOf, itemOf, listAccountListings } from "@/lib/listings/queries";
import { ownerOf } from "@/lib/listings/respond";

const list = keyedEndpoint("listings:read", async ({ ctx, principal, url }) => {
  const fields = parseFields(url.searchParams.get("fields") ?? undefined);
  const { query, page } = await listAccountListings({
    ctx,
    input: { owner: ownerOf(principal), query: Object.fromEntries(url.searchParams) },
  });
  const data = page.items.map((listed) => (fields ? pickFields(detailOf(listed), fields) : itemOf(listed)));
  return json(collectionBody(url, page, query.per_page, data));
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: list });
