"use server";

import { z } from "zod";
import { requestPasswordReset } from "@/lib/domain/accounts/request-password-reset";
import { resetPassword } from "@/lib/domain/accounts/reset-password";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { goTo, portalAction } from "@/lib/adapters/portal/action";
import { text } from "@/lib/adapters/portal/form-fields";

/** Asks for a reset link; the same answer whether the address has an account or not. */
export const requestLink = portalAction({
  session: "visitor",
  input: z.object({ email: text(500) }),
  values: (input) => input,
  run: async ({ ctx, input, locale }) => {
    const sent = await requestPasswordReset({ ctx, input });
    return { ok: true, message: format(locale, pageMessages(locale).access.reset.sent, { email: sent.email }) };
  },
});

/** Sets the new password from the mailed link; every session of the account ends. */
export const setNewPassword = portalAction({
  session: "visitor",
  input: z.object({ token: text(500), password: text(500) }),
  run: async ({ ctx, input }) => {
    await resetPassword({ ctx, input });
    return goTo("/login?notice=password_reset");
  },
});
