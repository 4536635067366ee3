// POST /listings/validate – validate a listing body exactly as creation would, writing nothing
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { validateListingRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { validateOrThrow } from "@/lib/domain/listings/internal/validate";

const validate = endpoint(validateListingRoute, async ({ ctx, body }) => {
  const { warnings } = await validateOrThrow(ctx, { document: await body(), mode: "create" });
  return json({ data: { valid: true }, warnings });
});

export const { GET, POST, PUT, PATCH, DELETE } = methods(validate);
