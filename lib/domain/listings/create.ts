import { postgresError, sqlState } from "@/db/errors";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { ValidationError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { newListingCode } from "./codes";
import { duplicateWarnings, subjectOf } from "./internal/duplicates";
import { insertListing } from "./internal/queries";
import { detailOf, type ListedRow } from "./read-shape";
import type { ListingDetail } from "./schemas";
import { takeSourceTime } from "./source-time";
import { searchColumns } from "./store";
import { validateOrThrow } from "./internal/validate";
import type { ListingWarning } from "@/lib/domain/listings/validation";

export interface CreateListingInput {
  body: unknown;
  source: "api" | "portal";
  /**
   * A draft is kept out of moderation until submitted, and needs only its type and transaction (see
   * `validateListing`); the API creates listings that go to moderation.
   */
  draft?: boolean;
  /**
   * Whether the answer names the account's listings that very likely describe the same place
   * (`possible_duplicate` warnings); an import line, whose result keeps no warnings, skips the lookup.
   */
  warnOfDuplicates?: boolean;
}

/**
 * A new listing of the acting account goes through moderation: it starts `pending` (or `draft` when
 * saved as one). A `source_updated_at` in the body is stored beside the fields. The answer's
 * warnings are the validator's, then the likely duplicates among the account's listings.
 */
export async function createListing({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: CreateListingInput;
}): Promise<{ listed: ListedRow; detail: ListingDetail; warnings: ListingWarning[] }> {
  const { body, sourceUpdatedAt } = takeSourceTime(input.body);
  const valid = await validateOrThrow(ctx, { document: body, mode: "create", draft: input.draft });
  const externalRef = typeof valid.fields.external_ref === "string" ? valid.fields.external_ref : null;
  // One insert, in no transaction of its own: a code collision is retried with a fresh code, which
  // PostgreSQL would refuse after the failed statement inside a transaction.
  for (let attempt = 0; ; attempt++) {
    try {
      const listed = await insertListing(ctx.db, {
        id: newId("listing"),
        code: newListingCode(),
        accountId: ctx.actor.accountId,
        agencyId: ctx.actor.agency?.id ?? null,
        externalRef,
        type: valid.fields.type as string,
        transaction: valid.fields.transaction as string,
        status: input.draft ? "draft" : "pending",
        fields: valid.fields,
        sourceUpdatedAt,
        source: input.source,
        ...searchColumns(valid.fields, valid.rates),
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      const duplicates = input.warnOfDuplicates === false ? [] : await duplicateWarnings(ctx.db, subjectOf(listed.row));
      return { listed, detail: detailOf(listed), warnings: [...valid.warnings, ...duplicates] };
    } catch (error) {
      const failure = postgresError(error);
      const constraint = failure?.code === sqlState.uniqueViolation ? failure.constraint : undefined;
      if (constraint === "listings_external_ref_idx") {
        throw new ValidationError([
          {
            pointer: "/external_ref",
            code: "invalid_value",
            params: { reason: "external_ref_taken" },
          },
        ]);
      }
      // A code collision (1 in 31^8 per listing) is retried with a fresh code.
      if (constraint !== "listings_code_unique" || attempt >= 3) throw error;
    }
  }
}
