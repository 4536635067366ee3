/**
 * Whether a title or description carries real content. Refused:
 * - no letters at all, or letters under a quarter of the non-blank characters ("1234567890 !!!");
 * - fewer distinct letters than `minDistinctLetters` ("abababababab");
 * - a letter repeated four times in a row, which no Romanian or English word does ("Caaaaasa");
 * - one word making up more than half of a text of four words or more ("vand vand vand vand").
 */
export function isMeaningfulText(text: string, minDistinctLetters: number): boolean {
  const letters = text.match(/\p{L}/gu) ?? [];
  const nonBlank = text.replace(/\s/gu, "").length;
  if (letters.length === 0 || letters.length * 4 < nonBlank) return false;
  // Each distinct letter lowered once: the same set as lowering every letter, without an ICU call per
  // letter of a long description (a share of every write's validation in the profile).
  const distinct = new Set<string>();
  for (const letter of new Set(letters)) distinct.add(letter.toLocaleLowerCase("ro"));
  if (distinct.size < minDistinctLetters) return false;
  if (/(\p{L})\1{3,}/iu.test(text)) return false;
  const words = text.toLocaleLowerCase("ro").match(/\p{L}{2,}/gu) ?? [];
  if (words.length >= 4) {
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    if (Math.max(...counts.values()) * 2 > words.length) return false;
  }
  return true;
}
