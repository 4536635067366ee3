import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { ValidationError } from "@/lib/base/errors";
import { createListing } from "./create";
import { editListing, type EditOutcome } from "./edit";
import { duplicateWarnings, subjectOf } from "./internal/duplicates";
import { codeByRef } from "./internal/queries";
import { takeSourceTime } from "./source-time";

const refPattern = /^[A-Za-z0-9._:/-]{1,100}$/;

export interface UpsertOutcome extends EditOutcome {
  created: boolean;
}

/**
 * `PUT /listings/ref/{ref}`: creates the listing when the integrator's id is new, otherwise applies
 * the body as a merge patch. Safe to repeat: the same body again writes nothing. A
 * `source_updated_at` older than the listing's is refused (`stale_source`) and writes nothing.
 * Either way the answer names the account's other listings that very likely describe the same place
 * (`possible_duplicate`), unless `warnOfDuplicates` is false (an import line).
 */
export async function upsertListingByRef({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { ref: string; body: unknown; ifMatch: string | null; warnOfDuplicates?: boolean };
}): Promise<UpsertOutcome> {
  if (!refPattern.test(input.ref)) {
    throw new ValidationError([{ pointer: "/ref", in: "path", code: "regex" }]);
  }
  const body = input.body;
  // Checked before anything else, so a malformed time refuses the write whichever way it goes.
  const { body: patch, sourceUpdatedAt } = takeSourceTime(body);
  if (
    body &&
    typeof body === "object" &&
    !Array.isArray(body) &&
    "external_ref" in body &&
    (body as Record<string, unknown>).external_ref !== input.ref
  ) {
    throw new ValidationError([{ pointer: "/external_ref", code: "invalid_value", params: { reason: "external_ref_mismatch" } }]);
  }
  const warnOfDuplicates = input.warnOfDuplicates !== false;
  const edit = async (code: string): Promise<UpsertOutcome> => {
    const edited = await editListing({ ctx, input: { code, patch, ifMatch: input.ifMatch, source: "api", sourceUpdatedAt } });
    const duplicates = warnOfDuplicates ? await duplicateWarnings(ctx.db, subjectOf(edited.listed.row)) : [];
    return { ...edited, warnings: [...edited.warnings, ...duplicates], created: false };
  };
  const existing = await findCode(ctx, input.ref);
  if (existing) return edit(existing);
  try {
    const document = body && typeof body === "object" && !Array.isArray(body) ? { ...body, external_ref: input.ref } : body;
    const created = await createListing({ ctx, input: { body: document, source: "api", warnOfDuplicates } });
    return { ...created, heldForModeration: false, unchanged: false, created: true };
  } catch (error) {
    // Another request created the same ref meanwhile: this one becomes the update it would have been.
    const raced = error instanceof ValidationError && error.errors.some((e) => e.pointer === "/external_ref");
    const code = raced ? await findCode(ctx, input.ref) : undefined;
    if (code) return edit(code);
    throw error;
  }
}

const findCode = (ctx: ServiceContext<AccountActor>, ref: string) => codeByRef(ctx.db, ctx.actor, ref);
