"use server";

import { revalidatePath } from "next/cache";
import { requestLocale } from "@/app/locale";
import { changeListingState, type OwnerAction } from "@/lib/domain/listings/change-state";
import { confirmListing } from "@/lib/domain/listings/confirm";
import { deleteListing } from "@/lib/domain/listings/delete";
import { format } from "@/lib/platform/i18n";
import { pageMessages } from "@/lib/platform/i18n/page-messages";
import { formText, refusalState, type FormState } from "@/lib/portal/form-state";
import { requireAccount, type PortalSession } from "@/lib/portal/session";
import { rowTokenMatches } from "./row-token";

const listingsPath = "/account/listings";

/**
 * One owner action on the listing the form names, through the service the API uses (same rules,
 * same events), after the row's token.
 * A refusal (the API's own, e.g. deleting with open reports) comes back in the page's language.
 */
async function act(form: FormData, run: (ctx: PortalSession["ctx"], code: string) => Promise<string | undefined>): Promise<FormState> {
  const { account, ctx } = await requireAccount();
  const locale = await requestLocale();
  const code = formText(form, "code", 20);
  if (!rowTokenMatches(form.get("token"), account, code)) {
    return { ok: false, message: pageMessages(locale).myListings.staleForm };
  }
  try {
    const message = await run({ ...ctx, locale }, code);
    revalidatePath(listingsPath);
    return { ok: true, message };
  } catch (error) {
    return refusalState(error, locale);
  }
}

const changeState = (action: OwnerAction) => (form: FormData) =>
  act(form, async (ctx, code) => {
    await changeListingState({ ctx, input: { code, action } });
    return undefined;
  });

export async function pauseListingAction(_previous: FormState, form: FormData): Promise<FormState> {
  return changeState("pause")(form);
}

export async function resumeListingAction(_previous: FormState, form: FormData): Promise<FormState> {
  return changeState("resume")(form);
}

export async function markListingSoldAction(_previous: FormState, form: FormData): Promise<FormState> {
  return changeState("sold")(form);
}

export async function deleteListingAction(_previous: FormState, form: FormData): Promise<FormState> {
  return act(form, async (ctx, code) => {
    await deleteListing({ ctx, input: { code } });
    return undefined;
  });
}

/** "Still available": one click, no question (nothing is lost by it); says what it did. */
export async function confirmListingAction(_previous: FormState, form: FormData): Promise<FormState> {
  return act(form, async (ctx, code) => {
    const confirmed = await confirmListing({ ctx, input: { code } });
    return format(pageMessages(ctx.locale ?? "ro").myListings.confirmed, { title: String(confirmed.row.fields.title) });
  });
}
