import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { searchKey } from "@/lib/domain/listings/internal/search-key";

describe("searchKey: the form in which the catalog compares cities", () => {
  it("ignores case, diacritics (comma and cedilla forms alike) and extra spaces", () => {
    for (const spelling of ["București", "Bucuresti", "bucurești", "BUCUREȘTI", "BUCUREŞTI", "  Bucuresti "]) {
      expect(searchKey(spelling)).toBe("bucuresti");
    }
    expect(searchKey("Târgu   Mureș")).toBe("targu mures");
    expect(searchKey("Timişoara")).toBe(searchKey("Timișoara"));
    expect(searchKey("Łódź")).toBe("lodz");
    expect(searchKey("Cluj-Napoca")).toBe("cluj-napoca");
  });

  it("is its own fixed point, and a text in lower case has the same key", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (text) => {
        const key = searchKey(text);
        expect(searchKey(key)).toBe(key);
        expect(searchKey(text.toLowerCase())).toBe(key);
      }),
    );
  });

  it("is its own fixed point for every code point, in either case (ẞ, ς and ᾳ have no one small form)", () => {
    const misfolded: string[] = [];
    for (let code = 0; code < 0x110000; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const text = String.fromCodePoint(code);
      const key = searchKey(text);
      // Most code points are their own key and their own case forms: the key of the same text is known
      // (four calls for each of 1.1 million code points took 14 s, near the test's time-out on a loaded machine).
      const keyOf = (other: string) => (other === text ? key : searchKey(other));
      if (keyOf(key) !== key || keyOf(text.toUpperCase()) !== key || keyOf(text.toLowerCase()) !== key) {
        misfolded.push(`U+${code.toString(16)}`);
      }
    }
    expect(misfolded).toEqual([]);
  });

  it("gives Latin text in capitals the key of the same text in small letters", () => {
    const latin = fc.integer({ min: 0x20, max: 0x24f }).map((code) => String.fromCodePoint(code));
    fc.assert(
      fc.property(fc.string({ unit: latin, maxLength: 40 }), (text) => {
        expect(searchKey(text.toUpperCase())).toBe(searchKey(text.toLowerCase()));
      }),
    );
  });

  it("is what the migration wrote into existing rows, for every Latin letter of U+00C0–U+024F", async () => {
    const folder = path.resolve("db/migrations");
    const migration = readFileSync(
      path.join(
        folder,
        readdirSync(folder).find((name) => name.includes("catalog_city_search_key"))!,
      ),
      "utf8",
    );
    const backfill = migration.match(/SET "city" = (.*) WHERE/)![1].replaceAll(`"fields"->>'city'`, "letter");
    const letters = Array.from({ length: 0x250 - 0xc0 }, (_, i) => String.fromCodePoint(0xc0 + i)).filter((c) => /\p{L}/u.test(c));
    const db = await database();
    const rows = await db.rows<{ letter: string; key: string }>(
      sql.raw(`select letter, ${backfill} as key from unnest(array[${letters.map((c) => `'${c}'`).join(",")}]) as letter`),
    );
    expect(rows).toHaveLength(letters.length);
    // Letters the folding leaves as they are (outside the Latin alphabet's reach) are left alone by both, but lower() may differ.
    const folded = rows.filter((row) => !/[^\p{ASCII}]/u.test(searchKey(row.letter)));
    expect(folded.length).toBeGreaterThan(250);
    expect(Object.fromEntries(folded.map((row) => [row.letter, row.key]))).toEqual(
      Object.fromEntries(folded.map((row) => [row.letter, searchKey(row.letter)])),
    );
  });
});
