import { cookies, headers } from "next/headers";
import { cache } from "react";
import { pageLocale, type Locale } from "@/lib/platform/i18n";
import { localeCookie } from "@/lib/platform/i18n/page-locale";

/**
 * The language of the page being rendered (cookie > Accept-Language > ro), read once per request.
 * Reading the request makes every page dynamic, which the CSP nonce requires anyway.
 */
export const requestLocale = cache(async (): Promise<Locale> => {
  const [jar, head] = await Promise.all([cookies(), headers()]);
  return pageLocale({ cookie: jar.get(localeCookie)?.value, acceptLanguage: head.get("accept-language") });
});
