import { en } from "./en";
import type { Messages, Unit } from "./keys";
import { ro } from "./ro";

export const locales = ["ro", "en"] as const;
export type Locale = (typeof locales)[number];
const defaultLocale: Locale = "ro";

const catalogues: Record<Locale, Messages> = { ro, en };

export const isLocale = (value: unknown): value is Locale => value === "ro" || value === "en";

export function messages(locale: Locale): Messages {
  return catalogues[locale];
}

import { format } from "./format";

export { format };

const pluralRules = new Map<Locale, Intl.PluralRules>();

/** `n` of `unit` in the language's plural form: "1 character", "19 caractere", "20 de caractere", "90 m²". */
export function quantity(locale: Locale, unit: Unit, n: string | number): string {
  const forms = catalogues[locale].units[unit];
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  const category = typeof n === "number" ? rules.select(n) : "other";
  return format(forms[category] ?? forms.other, { n });
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

/** The supported language with the highest q-value (RFC 9110 §12.5.4); region subtags ignored. */
export function fromAcceptLanguage(header: string | null | undefined): Locale | undefined {
  if (!header) return undefined;
  let best: { locale: Locale; q: number } | undefined;
  for (const part of header.split(",")) {
    const [range, ...paramsPart] = part.trim().split(";");
    const language = range.trim().toLowerCase().split("-")[0];
    if (!isLocale(language)) continue;
    const qParam = paramsPart.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { locale: language, q };
  }
  return best?.locale;
}
