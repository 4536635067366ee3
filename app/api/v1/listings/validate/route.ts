// POST /listings/validate – validate a listing body exactly as creation would, writing nothing
import { keyedEndpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { validateOrThrow } from "@/lib/listings/validate";

const validate = keyedEndpoint("listings:write", async ({ ctx, body }) => {
  const { warnings } = await validateOrThrow(ctx, { document: await body(), mode: "create" });
  return json({ data: { valid: true }, warnings });
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: validate });
