"use server";

import { revalidatePath } from "next/cache";
import { requestLocale } from "@/app/locale";
import { changeListingState, type OwnerAction } from "@/lib/domain/listings/change-state";
import { confirmListing } from "@/lib/domain/listings/confirm";
import { deleteListing } from "@/lib/domain/listings/delete";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";
import { requireAccount, type PortalSession } from "@/lib/adapters/portal/session";
import { rowTokenMatches } from "./row-token";

const listingsPath = "/account/listings";

/**
 * One owner action on the listing the form names, through the service the API uses (same rules,
 * same events), after the row's token. A refusal (the API's own, e.g. deleting with open reports)
 * comes back in the page's language.
 */
async function act(form: FormData, run: (ctx: PortalSession["ctx"], code: string) => Promise<unknown>): Promise<FormState> {
  const { account, ctx } = await requireAccount();
  const locale = await requestLocale();
  const code = formText(form, "code", 20);
  if (!rowTokenMatches(form.get("token"), account, code)) {
    return { ok: false, message: pageMessages(locale).myListings.staleForm };
  }
  try {
    await run(ctx, code);
    revalidatePath(listingsPath);
    // The row shows the new state (or is gone): the answer needs no words of its own.
    return { ok: true };
  } catch (error) {
    return refusalState(error, locale);
  }
}

const changeState = (action: OwnerAction) => (form: FormData) =>
  act(form, (ctx, code) => changeListingState({ ctx, input: { code, action } }));

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
  return act(form, (ctx, code) => deleteListing({ ctx, input: { code } }));
}

/** "Still available": one click, no question (nothing is lost by it). */
export async function confirmListingAction(_previous: FormState, form: FormData): Promise<FormState> {
  return act(form, (ctx, code) => confirmListing({ ctx, input: { code } }));
}
