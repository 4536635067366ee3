import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { searchKey } from "./search-key";
import { searchKeySql } from "./search-key-sql";

/**
 * The form in which the duplicate check compares addresses: city, street and number, each in its
 * search form (case, diacritics and runs of spaces do not count, searchKey), then without
 * punctuation or spaces, the street without the `str.`/`strada` people write or leave out and with
 * the boulevard's abbreviations written out (`bd.`, `b-dul`, `bdul`). `Strada Barbu Văcărescu` `12`
 * and `str.barbu vacarescu` `nr. 12` in `Bucuresti` meet. Null without a city, a street or a number:
 * a street alone names no place.
 */
export function addressKey(fields: Record<string, unknown>): string | null {
  const { city, street, street_number: number } = fields;
  if (typeof city !== "string" || typeof street !== "string" || typeof number !== "string") return null;
  const parts = [squeeze(words(city)), squeeze(streetWords(words(street))), squeeze(numberWords(words(number)))];
  return parts.every(Boolean) ? parts.join("|") : null;
}

// Each step below has its SQL twin in `addressKeySql`; tests/listings/duplicates.test.ts runs both.
const words = (text: string) =>
  searchKey(text)
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
const streetWords = (text: string) =>
  text.replace(/^(strada|str)( |$)/, "").replace(/^(bulevardul|bulevard|bdul|bd|b dul|blvd) /, "bulevardul ");
const numberWords = (text: string) => text.replace(/^(numarul|numar|nr) ?/, "");
const squeeze = (text: string) => text.replace(/ /g, "");

/**
 * `addressKey` in SQL, for rows written before the key existed (migration 0028 holds this text).
 * Its folding is `searchKeySql`'s, which knows the Latin letters up to U+024F: a letter beyond them
 * (none in a Romanian address) is dropped here where `addressKey` would fold it, so such an address
 * gets its exact key at its next write.
 */
export function addressKeySql(fields: SQLWrapper): SQL {
  const part = (name: string, rewrite: (text: SQL) => SQL = (text) => text) => {
    const wordsOf = sql`btrim(regexp_replace(${searchKeySql(sql`(${fields}->>${sql.raw(`'${name}'`)})`)}, '[^a-z0-9]+', ' ', 'g'))`;
    return sql`nullif(replace(${rewrite(wordsOf)}, ' ', ''), '')`;
  };
  const street = part(
    "street",
    (text) =>
      sql`regexp_replace(regexp_replace(${text}, '^(strada|str)( |$)', ''), '^(bulevardul|bulevard|bdul|bd|b dul|blvd) ', 'bulevardul ')`,
  );
  const number = part("street_number", (text) => sql`regexp_replace(${text}, '^(numarul|numar|nr) ?', '')`);
  return sql`(${part("city")} || '|' || ${street} || '|' || ${number})`;
}
