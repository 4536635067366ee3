"use server";

import { z } from "zod";
import { confirmEmail } from "@/lib/domain/accounts/confirm-email";
import { resendConfirmation } from "@/lib/domain/accounts/resend-confirmation";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { goTo, portalAction } from "@/lib/adapters/portal/action";
import { text } from "@/lib/adapters/portal/form-fields";

/**
 * The button on the page the confirmation link opens. A button, not the link itself: mail scanners
 * open links, and confirming must be the holder's act.
 */
export const confirmAddress = portalAction({
  session: "visitor",
  input: z.object({ token: text(500) }),
  run: async ({ ctx, input }) => {
    await confirmEmail({ ctx, input });
    return goTo("/login?notice=confirmed");
  },
});

/** A new confirmation link; the answer does not tell whether the address has an account waiting. */
export const sendNewLink = portalAction({
  session: "visitor",
  input: z.object({ email: text(500) }),
  values: (input) => input,
  run: async ({ ctx, input, locale }) => {
    const sent = await resendConfirmation({ ctx, input });
    return { ok: true, message: format(locale, pageMessages(locale).access.confirm.resent, { email: sent.email }) };
  },
});
