import Negotiator from "negotiator";
import en from "@/messages/en.json" with { type: "json" };
import ro from "@/messages/ro.json" with { type: "json" };
import { format } from "./format";
import type { Messages, Unit } from "./keys";

export const locales = ["ro", "en"] as const;
export type Locale = (typeof locales)[number];
const defaultLocale: Locale = "ro";

/** A language's messages, one file per language: the English file's shape is the key registry, which Romanian must match. */
export type Catalogue = typeof en;
const catalogues: Record<Locale, Catalogue> = { ro, en };
// The API's part is typed by keys.ts (every error code, reason, validation code and mail).
const api: Record<Locale, Messages> = { ro: ro.api, en: en.api };

export const isLocale = (value: unknown): value is Locale => value === "ro" || value === "en";

/** The API's messages (problems, validation, units, mails); the portal's are `pageMessages()`. */
export function messages(locale: Locale): Messages {
  return api[locale];
}

/** Both parts of a language's catalogue: for page-messages.ts, which gives the portal its part. */
export function catalogue(locale: Locale): Catalogue {
  return catalogues[locale];
}

export { format };

/** `n` of `unit` in the language's plural form and number format: "1 character", "19 caractere", "20 de caractere", "1.250 m²". */
export function quantity(locale: Locale, unit: Unit, n: number | string): string {
  const count = typeof n === "number" ? n : Number(n);
  return format(locale, api[locale].units[unit], { n: Number.isFinite(count) ? count : n });
}

/**
 * Locale of a request, in the documented order: `locale` query > account language > Accept-Language > ro.
 * The query value is checked by the caller (an invalid one is a 422), so here it is already a Locale.
 */
export function resolveLocale(input: { query?: Locale; account?: string | null; acceptLanguage?: string | null }): Locale {
  if (input.query) return input.query;
  if (isLocale(input.account)) return input.account;
  return fromAcceptLanguage(input.acceptLanguage) ?? defaultLocale;
}

/**
 * Locale of a portal page: the `locale` cookie the language switcher sets > Accept-Language > ro.
 * (Remembering the language on the account comes with sign-in.)
 */
export function pageLocale(input: { cookie?: string | null; acceptLanguage?: string | null }): Locale {
  if (isLocale(input.cookie)) return input.cookie;
  return fromAcceptLanguage(input.acceptLanguage) ?? defaultLocale;
}

/**
 * The supported language an `Accept-Language` header prefers (RFC 9110 §12.5.4), by negotiator: the
 * highest q-value, a region's tag matching its language (`en-GB` → `en`), `*` any of ours (the first).
 */
export function fromAcceptLanguage(header: string | null | undefined): Locale | undefined {
  if (!header) return undefined;
  const chosen = new Negotiator({ headers: { "accept-language": header } }).language(locales);
  return isLocale(chosen) ? chosen : undefined;
}
