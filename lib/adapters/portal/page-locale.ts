import { sitePath } from "@/lib/base/site-path";

/** The cookie the language switcher sets (the page's language, see `pageLocale` in index.ts). */
export const localeCookie = "locale";

/** A year: the choice outlives the session, as a language preference should. */
export const localeCookieMaxAge = 365 * 24 * 60 * 60;

/** Where the switcher returns to: a path on this site (`sitePath`), else home. */
export const returnPath = (value: unknown): string => sitePath(value, "/");
