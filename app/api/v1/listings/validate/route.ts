// POST /listings/validate – validate a listing body exactly as creation would, writing nothing
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { validateListingRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { validateNewListing } from "@/lib/domain/listings/validate";

const validate = endpoint(validateListingRoute, async ({ ctx, body }) => {
  const { warnings } = await validateNewListing({ ctx, input: { body: await body() } });
  return json({ data: { valid: true }, warnings });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(validate);
