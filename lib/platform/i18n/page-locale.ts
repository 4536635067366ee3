/** The cookie the language switcher sets (the page's language, see `pageLocale` in index.ts). */
export const localeCookie = "locale";

/** A year: the choice outlives the session, as a language preference should. */
export const localeCookieMaxAge = 365 * 24 * 60 * 60;

/**
 * Where the switcher returns to: a path on this site, never another origin (`//host`, `/\host` and
 * absolute addresses would make the form an open redirect); anything else returns home.
 */
export function returnPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  if (/[\u0000-\u001f\u007f]/.test(value)) return "/";
  return value;
}
