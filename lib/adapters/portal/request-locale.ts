import { cookies, headers } from "next/headers";
import { cache } from "react";
import { pageLocale, type Locale } from "@/lib/base/i18n";
import { localeCookie } from "./page-locale";
import { signedInAccount } from "./session";

/**
 * The language of the page being rendered, read once per request: the signed-in account's language
 * (remembered on the account, so it follows the holder to another browser), else cookie >
 * Accept-Language > ro. Reading the request makes every page dynamic, which the CSP nonce requires anyway.
 */
export const requestLocale = cache(async (): Promise<Locale> => {
  const [jar, head, account] = await Promise.all([cookies(), headers(), signedInAccount()]);
  if (account) return account.language;
  return pageLocale({ cookie: jar.get(localeCookie)?.value, acceptLanguage: head.get("accept-language") });
});
