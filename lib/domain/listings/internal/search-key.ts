/**
 * The form in which the catalog compares place names: people type `Bucuresti`, `bucurești` or
 * `BUCUREȘTI` for `București`, and `Targu  Mures` for `Târgu Mureș`. Case, diacritics (both Romanian
 * forms of ș and ț: comma and cedilla), surrounding spaces and runs of spaces do not count. The
 * catalog's `city` column holds this form of the listing's city (written with every change) and a
 * city filter is compared in it, so an index on the column serves every spelling.
 */
export function searchKey(text: string): string {
  return (
    text
      // Capitals then small letters fold case fully (ẞ, final ς and Greek letters with iota subscript
      // have no single small form), so a key is its own key and every spelling meets it.
      .normalize("NFKD")
      .toUpperCase()
      .toLowerCase()
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .replace(/[^\p{ASCII}]/gu, (letter) => undecomposed[letter] ?? letter)
      .trim()
      .replace(/\s+/g, " ")
  );
}

/** Latin letters whose marks Unicode does not decompose (NFKD leaves them whole). */
const undecomposed: Record<string, string> = {
  ø: "o",
  đ: "d",
  ł: "l",
  ħ: "h",
  ı: "i",
  ß: "ss",
  æ: "ae",
  œ: "oe",
};
