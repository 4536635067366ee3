"use server";

import { z } from "zod";
import { createListing } from "@/lib/domain/listings/create";
import { editListing } from "@/lib/domain/listings/edit";
import { getManagedListing } from "@/lib/domain/listings/get";
import type { ListingRow } from "@/lib/domain/listings/read-shape";
import type { ListingWarning } from "@/lib/domain/listings/validation";
import { AppError } from "@/lib/base/errors";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { goTo, portalAction } from "@/lib/adapters/portal/action";
import { text } from "@/lib/adapters/portal/form-fields";
import { documentOf, formSections, kindOf, postedValues, type ListingKind } from "@/lib/adapters/portal/listing-form";
import type { PortalSession } from "@/lib/adapters/portal/session";
import { controlOfPointer } from "@/lib/adapters/portal/unit-type-rows";
import { listingFormToken } from "./form-token";

type SavedAs = "draft" | "submitted" | "moderation" | "saved" | "unchanged";

/**
 * The listing form's one action: create (no `code`) or edit, through the API's services with the
 * portal as source. `intent` is the button pressed: `draft` keeps a listing a draft (draft rules),
 * `submit` sends it to moderation (full validation). Success goes to the owner's page, which says
 * what happened; a refusal comes back with the posted values and the API's errors by field.
 */
export const saveListingAction = portalAction({
  session: "account",
  input: z.object({ code: text(20), intent: text(20), etag: text(100), type: text(40), transaction: text(40) }),
  token: listingFormToken,
  controlOf: controlOfPointer,
  run: async ({ ctx, input, form, locale, keepValues }) => {
    const stored = input.code ? (await getManagedListing({ ctx, input: { code: input.code } })).row : undefined;
    const kind = stored ? kindOf(stored.type, stored.transaction) : kindOf(input.type, input.transaction);
    if (!kind) return { ok: false, message: pageMessages(locale).listingForm.kindInvalid };
    // The fields the form has depend on the kind: known only now.
    const sections = formSections(kind, locale);
    keepValues(postedValues(form, sections));
    const document = documentOf(form, sections);
    const outcome = stored
      ? await edit(ctx, stored, document, { ifMatch: input.etag || null, submit: input.intent === "submit" })
      : await create(ctx, kind, document, input.intent !== "submit");
    const query = new URLSearchParams({ saved: outcome.saved });
    for (const warning of outcome.warnings)
      query.append("warning", [warning.pointer, warning.code, warning.listing ?? ""].join(" ").trimEnd());
    return goTo(`/account/listings/${outcome.code}?${query}`);
  },
  refused: (error, { locale, values }) =>
    error instanceof AppError && error.code === "listing_changed_meanwhile"
      ? { ok: false, code: error.code, message: pageMessages(locale).listingForm.changedMeanwhile, values }
      : undefined,
  revalidate: [["/account/listings", "layout"]],
});

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
): Promise<{ code: string; saved: SavedAs; warnings: ListingWarning[] }> {
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
