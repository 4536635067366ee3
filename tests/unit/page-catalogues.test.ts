import { describe, expect, it } from "vitest";
import { format, locales } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { argumentsOf } from "@/lib/base/i18n/arguments";

/**
 * The page catalogues follow the API catalogues' rule (catalogues.test.ts): every key in both
 * languages, with the same ICU arguments, and no empty text. The English catalogue's shape is the
 * registry; TypeScript refuses a Romanian catalogue that lacks a key or has one more.
 */

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") found.set(prefix + key, value);
    else for (const [path, text] of leaves(value, `${prefix}${key}.`)) found.set(path, text);
  }
  return found;
}

const placeholders = (text: string) => argumentsOf(text).sort();

describe("page catalogues", () => {
  const [first, ...others] = locales.map((locale) => ({ locale, texts: leaves(pageMessages(locale)) }));

  it.each(others)("$locale has exactly the keys of the first catalogue, with the same placeholders", ({ texts }) => {
    expect([...texts.keys()].sort()).toEqual([...first.texts.keys()].sort());
    for (const [key, text] of first.texts) expect(placeholders(texts.get(key)!), key).toEqual(placeholders(text));
  });

  it.each(locales)("%s has no empty text", (locale) => {
    for (const [key, text] of leaves(pageMessages(locale))) expect(text.trim(), key).not.toBe("");
  });

  it.each(locales)("%s: a text without arguments reads as written (pages show it without formatting it)", (locale) => {
    for (const [key, text] of leaves(pageMessages(locale)))
      if (placeholders(text).length === 0) expect(format(locale, text), key).toBe(text);
  });

  it("names each language in that language for the switcher", () => {
    expect(pageMessages("ro").site.switchTo).toBe("Română");
    expect(pageMessages("en").site.switchTo).toBe("English");
  });
});
