import type { ServiceContext } from "@/lib/base/context";
import { cachedRates } from "@/lib/domain/currency";
import { ValidationError } from "@/lib/base/errors";
import { validateListing, type CurrencyRates, type ListingWarning } from "@/lib/domain/listings/validation";

export interface ValidListing {
  fields: Record<string, unknown>;
  warnings: ListingWarning[];
  rates: CurrencyRates;
}

/** Runs the one validator with the current reference rates; invalid input becomes a 422. */
export async function validateOrThrow(
  ctx: ServiceContext,
  input: { document: unknown; mode: "create" | "patch"; previous?: Record<string, unknown>; draft?: boolean },
): Promise<ValidListing> {
  if (!input.document || typeof input.document !== "object" || Array.isArray(input.document)) {
    throw new ValidationError([{ pointer: "", code: "object" }]);
  }
  const rates = await cachedRates(ctx);
  const result = validateListing({
    document: input.document as Record<string, unknown>,
    mode: input.mode,
    previous: input.previous,
    draft: input.draft,
    rates,
    now: ctx.now,
  });
  if (!result.ok) throw new ValidationError(result.errors);
  return { fields: result.value as Record<string, unknown>, warnings: result.warnings, rates };
}
