"use server";

import { z } from "zod";
import { signUp } from "@/lib/domain/accounts/sign-up";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalAction } from "@/lib/adapters/portal/action";
import { text } from "@/lib/adapters/portal/form-fields";

/** The sign-up form: the same answer whether the address had an account or not (the mail says which). */
export const createAccount = portalAction({
  session: "visitor",
  input: z.object({ name: text(500), email: text(500), password: text(500) }),
  values: ({ name, email }) => ({ name, email }),
  run: async ({ ctx, input, locale }) => {
    const { email } = await signUp({ ctx, input: { ...input, language: locale } });
    return { ok: true, message: format(locale, pageMessages(locale).access.signup.sent, { email }) };
  },
});
