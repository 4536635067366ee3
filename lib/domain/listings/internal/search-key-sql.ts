import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { searchKey } from "./search-key";

/**
 * The SQL form of `searchKey` for text stored without a search column (a listing's title): the
 * letters of Latin-1 Supplement and Latin Extended-A/B (U+00C0–U+024F, every Romanian letter among
 * them) fold as `searchKey` folds them, for they are made from it here; then ASCII case and runs of
 * spaces. Letters beyond that range stay as they are, so they match only as typed.
 */
const folds = Array.from({ length: 0x24f - 0xc0 + 1 }, (_, i) => String.fromCodePoint(0xc0 + i)).flatMap((letter) => {
  const key = searchKey(letter);
  return key !== letter && /^[a-z]+$/.test(key) ? [[letter, key] as const] : [];
});
const single = folds.filter(([, key]) => key.length === 1);
const several = folds.filter(([, key]) => key.length > 1);
const from = single.map(([letter]) => letter).join("");
const to = single.map(([, key]) => key).join("");

export function searchKeySql(text: SQLWrapper): SQL {
  const translated = sql`translate(${text}, ${from}, ${to})`;
  const folded = several.reduce((inner, [letter, key]) => sql`replace(${inner}, ${letter}, ${key})`, translated);
  return sql`regexp_replace(btrim(lower(${folded})), '\\s+', ' ', 'g')`;
}

/** `text` as a LIKE pattern matching it anywhere, its wildcards taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, "\\$&")}%`;
