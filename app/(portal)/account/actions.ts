"use server";

import { z } from "zod";
import { changePassword } from "@/lib/domain/accounts/change-password";
import { goTo, portalAction } from "@/lib/adapters/portal/action";
import { signIn } from "@/lib/adapters/portal/auth";
import { text } from "@/lib/adapters/portal/form-fields";

/**
 * Changes the password. The service moves the session generation on, which ends every session,
 * this one too; signing this browser in again with the new password keeps its holder signed in.
 * The page is then loaded afresh: this request still carries the old session cookie.
 */
export const changeOwnPassword = portalAction({
  session: "account",
  input: z.object({ current_password: text(500), new_password: text(500) }),
  run: async ({ account, ctx, input }) => {
    await changePassword({ ctx, input });
    await signIn("credentials", { email: account.email, password: input.new_password, redirect: false });
    return goTo("/account?notice=password_changed");
  },
});
