import type { ServiceContext } from "@/lib/base/context";
import { validateOrThrow } from "./internal/validate";
import { takeSourceTime } from "./source-time";
import type { ListingWarning } from "./validation";

/**
 * `POST /listings/validate`: judges a listing body exactly as creation would (the same validator,
 * the same reference rates) and writes nothing. Invalid input is the 422 creation would answer.
 */
export async function validateNewListing({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { body: unknown };
}): Promise<{ warnings: ListingWarning[] }> {
  const { warnings } = await validateOrThrow(ctx, { document: takeSourceTime(input.body).body, mode: "create" });
  return { warnings };
}
