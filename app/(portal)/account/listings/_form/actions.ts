"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requestLocale } from "@/app/locale";
import { createListing } from "@/lib/domain/listings/create";
import { editListing } from "@/lib/domain/listings/edit";
import { getManagedListing } from "@/lib/domain/listings/get";
import type { ListingRow } from "@/lib/domain/listings/read-shape";
import type { ListingWarning } from "@/lib/domain/listings/validation";
import { AppError } from "@/lib/base/errors";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";
import { documentOf, formSections, kindOf, postedValues, type ListingKind } from "@/lib/adapters/portal/listing-form";
import { requireAccount, type PortalSession } from "@/lib/adapters/portal/session";
import { controlOfPointer } from "@/lib/adapters/portal/unit-type-rows";
import { listingFormTokenMatches } from "./form-token";

export type SavedAs = "draft" | "submitted" | "moderation" | "saved" | "unchanged";

/**
 * The listing form's one action: create (no `code`) or edit, through the API's services with the
 * portal as source. `intent` is the button pressed: `draft` keeps a listing a draft (draft rules),
 * `submit` sends it to moderation (full validation). Success goes to the owner's page, which says
 * what happened; a refusal comes back with the posted values and the API's errors by field.
 */
export async function saveListingAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { account, ctx } = await requireAccount();
  const locale = await requestLocale();
  const t = pageMessages(locale).listingForm;
  const code = formText(form, "code", 20);
  if (!listingFormTokenMatches(form.get("token"), account, code)) return { ok: false, message: t.staleForm };
  const intent = formText(form, "intent", 20);
  let outcome: { code: string; saved: SavedAs; warnings: ListingWarning[] };
  let values: Record<string, string> = {};
  try {
    const stored = code ? (await getManagedListing({ ctx, input: { code } })).row : undefined;
    const kind = stored ? kindOf(stored.type, stored.transaction) : kindOf(formText(form, "type", 40), formText(form, "transaction", 40));
    if (!kind) return { ok: false, message: t.kindInvalid };
    const sections = formSections(kind, locale);
    values = postedValues(form, sections);
    const document = documentOf(form, sections);
    outcome = stored
      ? await edit(ctx, stored, document, { ifMatch: formText(form, "etag", 100) || null, submit: intent === "submit" })
      : await create(ctx, kind, document, intent !== "submit");
  } catch (error) {
    if (error instanceof AppError && error.code === "listing_changed_meanwhile")
      return { ok: false, code: error.code, message: t.changedMeanwhile, values };
    return refusalState(error, locale, values, controlOfPointer);
  }
  revalidatePath("/account/listings", "layout");
  const query = new URLSearchParams({ saved: outcome.saved });
  for (const warning of outcome.warnings) query.append("warning", `${warning.pointer} ${warning.code}`);
  redirect(`/account/listings/${outcome.code}?${query}`);
}

async function create(ctx: PortalSession["ctx"], kind: ListingKind, document: Record<string, unknown>, draft: boolean) {
  const { listed, warnings } = await createListing({ ctx, input: { body: { ...document, ...kind }, source: "portal", draft } });
  return { code: listed.row.code, saved: draft ? ("draft" as const) : ("submitted" as const), warnings };
}

/** What an edit did, in the words of the page it leads to: sent to moderation, submitted, saved. */
async function edit(
  ctx: PortalSession["ctx"],
  stored: Pick<ListingRow, "code" | "status">,
  patch: Record<string, unknown>,
  options: { ifMatch: string | null; submit: boolean },
) {
  const { code, status: before } = stored;
  const result = await editListing({ ctx, input: { code, patch, source: "portal", ...options } });
  const after = result.listed.row.status;
  const saved: SavedAs = result.unchanged
    ? "unchanged"
    : result.heldForModeration
      ? "moderation"
      : before !== "pending" && after === "pending"
        ? "submitted"
        : after === "draft"
          ? "draft"
          : "saved";
  return { code, saved, warnings: result.warnings };
}
