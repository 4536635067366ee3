"use server";

import { redirect } from "next/navigation";
import { requestLocale } from "@/app/locale";
import { confirmEmail } from "@/lib/domain/accounts/confirm-email";
import { resendConfirmation } from "@/lib/domain/accounts/resend-confirmation";
import { pageContext } from "@/lib/base/context";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";

/**
 * The button on the page the confirmation link opens. A button, not the link itself: mail scanners
 * open links, and confirming must be the holder's act.
 */
export async function confirmAddress(_previous: FormState, form: FormData): Promise<FormState> {
  try {
    await confirmEmail({ ctx: await pageContext(), input: { token: formText(form, "token", 500) } });
  } catch (error) {
    return refusalState(error, await requestLocale());
  }
  redirect("/login?notice=confirmed");
}

/** A new confirmation link; the answer does not tell whether the address has an account waiting. */
export async function sendNewLink(_previous: FormState, form: FormData): Promise<FormState> {
  const locale = await requestLocale();
  const email = formText(form, "email", 500);
  try {
    const sent = await resendConfirmation({ ctx: await pageContext(), input: { email } });
    return { ok: true, message: format(pageMessages(locale).access.confirm.resent, { email: sent.email }) };
  } catch (error) {
    return refusalState(error, locale, { email });
  }
}
