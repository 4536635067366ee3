"use server";

import { redirect } from "next/navigation";
import { requestLocale } from "@/app/locale";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { format } from "@/lib/base/i18n";
import { signIn, signOut, SignInRefused } from "@/lib/adapters/portal/auth";
import { formText, type FormState } from "@/lib/adapters/portal/form-state";
import { safeReturnPath } from "@/lib/adapters/portal/return-path";

/** The sign-in form: on success back to the page that asked for it; a refusal says why only as far as it is safe to. */
export async function logIn(_previous: FormState, form: FormData): Promise<FormState> {
  const email = formText(form, "email", 320);
  try {
    await signIn("credentials", { email, password: formText(form, "password", 500), redirect: false });
  } catch (error) {
    if (!(error instanceof SignInRefused)) throw error;
    const { refusals } = pageMessages(await requestLocale()).access.login;
    const refusal = error.refusal;
    const message =
      refusal.reason === "rate_limited"
        ? format(refusals.rate_limited, { minutes: Math.max(1, Math.ceil(refusal.retryAfterSeconds / 60)) })
        : refusals[refusal.reason];
    return { message, code: refusal.reason, values: { email } };
  }
  redirect(safeReturnPath(formText(form, "next", 2000)));
}

/** Sign-out (the header's button): ends this browser's session. */
export async function logOut(): Promise<void> {
  await signOut({ redirect: false });
  redirect("/login?notice=signed_out");
}
