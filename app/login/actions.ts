"use server";

import { z } from "zod";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { goTo, portalAction } from "@/lib/adapters/portal/action";
import { signIn, signOut, SignInRefused } from "@/lib/adapters/portal/auth";
import { text } from "@/lib/adapters/portal/form-fields";
import { safeReturnPath } from "@/lib/adapters/portal/return-path";

/** The sign-in form: on success back to the page that asked for it; a refusal says why only as far as it is safe to. */
export const logIn = portalAction({
  session: "visitor",
  input: z.object({ email: text(320), password: text(500), next: text(2000) }),
  values: ({ email }) => ({ email }),
  run: async ({ input }) => {
    await signIn("credentials", { email: input.email, password: input.password, redirect: false });
    return goTo(safeReturnPath(input.next));
  },
  refused: (error, { locale, values }) => {
    if (!(error instanceof SignInRefused)) return undefined;
    const { refusals } = pageMessages(locale).access.login;
    const refusal = error.refusal;
    const message =
      refusal.reason === "rate_limited"
        ? format(locale, refusals.rate_limited, { minutes: Math.max(1, Math.ceil(refusal.retryAfterSeconds / 60)) })
        : refusals[refusal.reason];
    return { message, code: refusal.reason, values };
  },
});

/** Sign-out (the header's button): ends this browser's session. */
export const logOut = portalAction({
  session: "visitor",
  input: z.object({}),
  run: async () => {
    await signOut({ redirect: false });
    return goTo("/login?notice=signed_out");
  },
});
