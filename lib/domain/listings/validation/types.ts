import type { FieldError } from "@/lib/base/errors";
import type { CurrencyRates } from "@/lib/domain/currency/currencies";
import type { ListingWriteFields } from "@/lib/domain/vocabulary";

export type { CurrencyRates, ListingWriteFields };

export interface ValidateListingInput {
  /** For create: the body; for patch: the merge-patched result. */
  document: Record<string, unknown>;
  mode: "create" | "patch";
  /** Patch only: stored write fields before the patch. */
  previous?: Record<string, unknown>;
  /** Reference rates to EUR. */
  rates: CurrencyRates;
  now: Date;
  /**
   * A draft (saved, not submitted): only `type` and `transaction` are required; every value given is
   * judged as for publication (format, bounds, applicability, cross-field checks).
   */
  draft?: boolean;
}

/**
 * Something said without refusing the request: `field_not_applicable`, `unknown_amenity`,
 * `unknown_field`, or `retired_code` (a retired code replaced by its successor) from the validator;
 * `possible_duplicate` (at pointer "", with the other listing's code in `listing`) from a create or
 * upsert (lib/domain/listings/internal/duplicates.ts).
 */
export interface ListingWarning {
  pointer: string;
  code: string;
  listing?: string;
}

export type ValidateListingResult =
  { ok: true; value: ListingWriteFields; warnings: ListingWarning[] } | { ok: false; errors: FieldError[]; warnings: ListingWarning[] };
