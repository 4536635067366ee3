"use server";

import { requestLocale } from "@/app/locale";
import { signUp } from "@/lib/domain/accounts/sign-up";
import { pageContext } from "@/lib/base/context";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";

/** The sign-up form: the same answer whether the address had an account or not (the mail says which). */
export async function createAccount(_previous: FormState, form: FormData): Promise<FormState> {
  const locale = await requestLocale();
  const values = { name: formText(form, "name", 500), email: formText(form, "email", 500) };
  try {
    const { email } = await signUp({
      ctx: await pageContext(),
      input: { ...values, password: formText(form, "password", 500), language: locale },
    });
    return { ok: true, message: format(pageMessages(locale).access.signup.sent, { email }) };
  } catch (error) {
    return refusalState(error, locale, values);
  }
}
