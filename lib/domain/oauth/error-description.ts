import type { AppError } from "@/lib/base/errors";
import { renderProblem } from "@/lib/base/problem";
import type { Locale } from "@/lib/base/i18n";

const replacements: Record<string, string> = {
  "\u201C": "'",
  "\u201D": "'",
  "\u201E": "'",
  "\u2019": "'",
  '"': "'",
  "\\": "/",
  "\u2013": "-",
};

/**
 * RFC 6749 allows `error_description` only the printable ASCII characters but `"` and `\`
 * (%x20-21 / %x23-5B / %x5D-7E): the catalogue's text in the request's language with diacritics
 * dropped ("Codul a expirat", not "Codul a expirat" with ș and ț), quotes made plain.
 */
export function asciiDescription(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\x20-\x7E]|["\\]/g, (char) => replacements[char] ?? "");
}

/** The `error_description` of an OAuth error: its problem detail, in ASCII. */
export const describeError = (error: AppError, locale: Locale): string => asciiDescription(renderProblem(error, locale, "").detail);
