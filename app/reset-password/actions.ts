"use server";

import { redirect } from "next/navigation";
import { requestLocale } from "@/app/locale";
import { requestPasswordReset } from "@/lib/domain/accounts/request-password-reset";
import { resetPassword } from "@/lib/domain/accounts/reset-password";
import { pageContext } from "@/lib/base/context";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";

/** Asks for a reset link; the same answer whether the address has an account or not. */
export async function requestLink(_previous: FormState, form: FormData): Promise<FormState> {
  const locale = await requestLocale();
  const email = formText(form, "email", 500);
  try {
    const sent = await requestPasswordReset({ ctx: await pageContext(), input: { email } });
    return { ok: true, message: format(pageMessages(locale).access.reset.sent, { email: sent.email }) };
  } catch (error) {
    return refusalState(error, locale, { email });
  }
}

/** Sets the new password from the mailed link; every session of the account ends. */
export async function setNewPassword(_previous: FormState, form: FormData): Promise<FormState> {
  try {
    await resetPassword({
      ctx: await pageContext(),
      input: { token: formText(form, "token", 500), password: formText(form, "password", 500) },
    });
  } catch (error) {
    return refusalState(error, await requestLocale());
  }
  redirect("/login?notice=password_reset");
}
