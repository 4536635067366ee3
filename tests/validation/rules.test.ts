import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toEur } from "@/lib/domain/currency";
import { isMeaningfulText, isValidParcelRing, listingWriteSchema } from "@/lib/domain/listings/validation";
import { writeFieldNames } from "@/lib/domain/vocabulary";
import { rates } from "./fixtures";

describe("meaningful_text", () => {
  it.each(["Apartament 3 camere Floreasca", "Garsonieră 35 mp, et. 2/4", "Vilă P+1, 5 cam., 2021", "Ap. 2 cam. 50mp 2/4 2005"])(
    "accepts %j",
    (text) => expect(isMeaningfulText(text, 4)).toBe(true),
  );

  it.each([
    ["no letters", "1234567890 !!!"],
    ["letters drowned in digits", "A1234567890123456789"],
    ["too few distinct letters", "abababababab"],
    ["a letter four times in a row", "Caaaasa frumoasă"],
    ["one word repeated", "vand vand vand vand casa"],
  ])("refuses %s", (_why, text) => expect(isMeaningfulText(text, 4)).toBe(false));

  it("asks more variety of a description than of a title", () => {
    expect(isMeaningfulText("casa mare si casa mica", 4)).toBe(true);
    expect(isMeaningfulText("casa mare si casa mica", 8)).toBe(false);
  });
});

describe("valid_parcel_ring ([longitude, latitude] corners)", () => {
  const square: [number, number][] = [
    [26.05, 44.6],
    [26.051, 44.6],
    [26.051, 44.601],
    [26.05, 44.601],
  ];

  it("accepts a simple outline, open or closed", () => {
    expect(isValidParcelRing(square)).toBe(true);
    expect(isValidParcelRing([...square, square[0]])).toBe(true);
  });

  it.each([
    ["self-intersecting (bow tie)", [square[0], square[2], square[1], square[3]]],
    ["fewer than three distinct corners", [square[0], square[1], square[0], square[1]]],
    [
      "all corners on one line",
      [
        [26.1, 44.4],
        [26.2, 44.5],
        [26.3, 44.6],
      ],
    ],
    [
      "a spike going back on itself",
      [
        [26.05, 44.6],
        [26.07, 44.6],
        [26.06, 44.6],
        [26.06, 44.61],
      ],
    ],
    [
      "a speck smaller than a tenth of a square metre",
      [
        [26.05, 44.6],
        [26.0500001, 44.6],
        [26.0500001, 44.6000001],
      ],
    ],
  ] as [string, [number, number][]][])("refuses %s", (_why, ring) => expect(isValidParcelRing(ring)).toBe(false));
});

describe("toEur", () => {
  it("converts with the reference rate; EUR is always 1; no rate or an unknown currency gives undefined", () => {
    expect(toEur(1000, "RON", rates)).toBeCloseTo(200);
    expect(toEur(1000, "EUR", {})).toBe(1000);
    expect(toEur(1000, "GBP", rates)).toBeUndefined();
    expect(toEur(1000, "CHF", { CHF: { eurPerUnit: 1.05, updatedAt: new Date() } })).toBeUndefined();
  });
});

describe("listingWriteSchema", () => {
  it("describes every write field, under the id ListingWrite, as JSON Schema", () => {
    const document = z.toJSONSchema(listingWriteSchema) as { $ref: string; $defs: Record<string, { properties: object }> };
    expect(document.$ref).toBe("#/$defs/ListingWrite");
    expect(Object.keys(document.$defs.ListingWrite.properties)).toEqual(writeFieldNames);
    expect(JSON.stringify(document.$defs.ListingWrite.properties)).toContain('"maxLength":90');
  });

  it("parses a listing body", () => {
    expect(listingWriteSchema.safeParse({ title: "Apartament 3 camere", rooms: 3, landmark: null }).success).toBe(true);
    expect(listingWriteSchema.safeParse({ rooms: 0 }).success).toBe(false);
  });
});
