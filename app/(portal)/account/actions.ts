"use server";

import { redirect } from "next/navigation";
import { requestLocale } from "@/app/locale";
import { changePassword } from "@/lib/domain/accounts/change-password";
import { signIn } from "@/lib/adapters/portal/auth";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";
import { requireAccount } from "@/lib/adapters/portal/session";

/**
 * Changes the password. The service moves the session generation on, which ends every session,
 * this one too; signing this browser in again with the new password keeps its holder signed in.
 * The page is then loaded afresh: this request still carries the old session cookie.
 */
export async function changeOwnPassword(_previous: FormState, form: FormData): Promise<FormState> {
  const { account, ctx } = await requireAccount();
  const locale = await requestLocale();
  const newPassword = formText(form, "new_password", 500);
  try {
    await changePassword({ ctx, input: { current_password: formText(form, "current_password", 500), new_password: newPassword } });
  } catch (error) {
    return refusalState(error, locale);
  }
  await signIn("credentials", { email: account.email, password: newPassword, redirect: false });
  redirect("/account?notice=password_changed");
}
