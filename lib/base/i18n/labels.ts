import type { Locale } from "@/lib/base/i18n";

export type Labels = Readonly<Record<Locale, string>>;

export interface VocabularyEntry<C extends string = string> {
  readonly code: C;
  readonly labels: Labels;
}

/** An ordered code list; order matters (floor levels, energy classes) so it is an array, never object keys. */
export interface Enumeration<C extends string = string> {
  readonly entries: readonly VocabularyEntry<C>[];
  readonly codes: readonly C[];
  has(code: unknown): code is C;
  label(code: C, locale: Locale): string;
}

/** A code's label in the language, or the code itself when the list does not know it (retired since it was written). */
export function labelOf<C extends string>(list: Enumeration<C>, code: unknown, locale: Locale): string {
  return list.has(code) ? list.label(code, locale) : String(code);
}

/** Builds an enumeration from `[code, ro, en]` rows, the compact form the vocabulary files are written in. */
export function enumeration<const C extends string>(rows: readonly (readonly [C, string, string])[]): Enumeration<C> {
  const entries = rows.map(([code, ro, en]) => ({ code, labels: { ro, en } }));
  return fromEntries(entries);
}

export function fromEntries<C extends string>(entries: readonly VocabularyEntry<C>[]): Enumeration<C> {
  const byCode = new Map<string, VocabularyEntry<C>>(entries.map((entry) => [entry.code, entry]));
  if (byCode.size !== entries.length) throw new Error("duplicate code in an enumeration");
  return {
    entries,
    codes: entries.map((entry) => entry.code),
    has: (code: unknown): code is C => typeof code === "string" && byCode.has(code),
    label: (code, locale) => byCode.get(code)!.labels[locale],
  };
}
