"use server";

import { cookies } from "next/headers";
import { z } from "zod";
import { setAccountLanguage } from "@/lib/domain/accounts/set-account-language";
import { isLocale } from "@/lib/base/i18n";
import { goTo, portalAction } from "@/lib/adapters/portal/action";
import { text } from "@/lib/adapters/portal/form-fields";
import { localeCookie, localeCookieMaxAge, returnPath } from "@/lib/adapters/portal/page-locale";
import { sessionContext } from "@/lib/adapters/portal/session";

/**
 * The language switcher's form: remembers the language in a cookie and, for a signed-in holder, on
 * the account too (its pages in any browser, its mails, its keys' API answers), then returns to the
 * page it was sent from. A plain form post without JavaScript; Next.js checks that the post comes
 * from this origin.
 */
export const chooseLocale = portalAction({
  session: "visitor",
  input: z.object({ locale: text(10), return: text() }),
  run: async ({ account, input: { locale, return: from } }) => {
    if (isLocale(locale)) {
      // Not a secret and read by no script: HttpOnly; Lax so that it comes with links from other sites.
      (await cookies()).set(localeCookie, locale, { path: "/", maxAge: localeCookieMaxAge, sameSite: "lax", httpOnly: true });
      if (account && account.language !== locale) {
        await setAccountLanguage({ ctx: await sessionContext(account), input: { language: locale } });
      }
    }
    return goTo(returnPath(from));
  },
});
