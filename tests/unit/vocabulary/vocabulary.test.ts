import { describe, expect, it } from "vitest";
import { currencies } from "@/lib/domain/currency";
import {
  amenityDetails,
  applianceCodes,
  enumerations,
  floorLevels,
  partitionings,
  propertyTypes,
  retiredCodes,
  subtypesByType,
  transactionTypes,
  transactionsByType,
  typeLimits,
  writeFields,
  type Enumeration,
  type FieldSpec,
} from "@/lib/domain/vocabulary";

const allEnumerations: [string, Enumeration][] = [
  ...Object.entries(enumerations),
  ...Object.entries(subtypesByType).map(([type, list]) => [`subtype.${type}`, list] as [string, Enumeration]),
];

describe("vocabulary", () => {
  it("has the codes that tests and examples rely on", () => {
    expect(propertyTypes.codes).toEqual(["apartment", "house", "land", "commercial", "office", "industrial", "development"]);
    expect(transactionTypes.codes).toEqual(["sale", "rent"]);
    expect(partitionings.codes).toEqual(["detached", "semi_detached", "non_detached", "circular"]);
    expect(floorLevels.codes).toEqual([
      "basement",
      "semi_basement",
      "ground",
      "mezzanine",
      ...Array.from({ length: 60 }, (_, i) => String(i + 1)),
      "attic",
    ]);
    for (const code of ["EUR", "RON", "USD", "GBP"]) expect(currencies.has(code)).toBe(true);
    expect(enumerations.energy_certificate.codes).toEqual(["A+", "A", "B", "C", "D", "E", "F", "G"]);
    expect(enumerations.energy_certificate_status.codes).toEqual(["available", "preliminary", "exempt"]);
    expect(enumerations.heating_type.has("none")).toBe(true);
  });

  it.each(allEnumerations)("%s: every code has a ro and an en label, Romanian with comma-below ș and ț", (_name, list) => {
    expect(list.codes.length).toBeGreaterThan(0);
    for (const entry of list.entries) {
      expect(entry.labels.ro.trim(), entry.code).not.toBe("");
      expect(entry.labels.en.trim(), entry.code).not.toBe("");
      expect(entry.labels.ro, entry.code).not.toMatch(/[şţŞŢ]/);
    }
  });

  it("a development is sold only; every other type is sold and rented", () => {
    expect(transactionsByType.development).toEqual(["sale"]);
    for (const type of propertyTypes.codes.filter((t) => t !== "development")) {
      expect(transactionsByType[type]).toEqual(["sale", "rent"]);
    }
  });

  it("flags appliances among the amenities", () => {
    expect([...applianceCodes]).toEqual(expect.arrayContaining(["washing_machine", "fridge", "dishwasher"]));
    expect(applianceCodes.has("swimming_pool")).toBe(false);
    expect(amenityDetails.length).toBeGreaterThan(30);
  });

  it("retired codes are gone from their list and point to a current code", () => {
    expect(retiredCodes.length).toBeGreaterThan(0);
    for (const retired of retiredCodes) {
      const [name, type] = retired.enumeration.split(".");
      const list =
        name === "subtype" ? subtypesByType[type as keyof typeof subtypesByType] : enumerations[name as keyof typeof enumerations];
      expect(list.has(retired.code), retired.code).toBe(false);
      expect(list.has(retired.successor), retired.successor).toBe(true);
      expect(retired.reason.ro && retired.reason.en).toBeTruthy();
    }
  });
});

describe("field metadata", () => {
  const fields = Object.entries(writeFields) as [string, FieldSpec][];

  it("a field required for a type exists for that type", () => {
    for (const [name, spec] of fields) {
      if (spec.required?.rule !== "required_if") continue;
      for (const type of spec.required.types) {
        expect(!spec.appliesTo?.types || spec.appliesTo.types.includes(type), `${name} for ${type}`).toBe(true);
      }
    }
  });

  it("fields documented as not nullable are required and not nullable", () => {
    for (const name of ["title", "description", "city", "street", "latitude", "longitude", "type", "transaction"]) {
      const spec = writeFields[name as keyof typeof writeFields];
      expect(spec.nullable, name).toBe(false);
      expect(spec.required, name).toEqual({ rule: "required" });
    }
  });

  it("type limits name numeric fields of the type and lie within the field bounds", () => {
    for (const [type, limits] of Object.entries(typeLimits)) {
      for (const [name, bounds] of Object.entries(limits)) {
        const spec = writeFields[name as keyof typeof writeFields];
        if (spec.kind !== "integer" && spec.kind !== "number") throw new Error(`${name} is not numeric`);
        expect(!spec.appliesTo?.types || spec.appliesTo.types.includes(type as never), `${name} for ${type}`).toBe(true);
        for (const limit of [bounds.min, bounds.max].filter((v) => v !== undefined)) {
          expect(limit).toBeGreaterThanOrEqual(spec.min ?? -Infinity);
          expect(limit).toBeLessThanOrEqual(spec.max ?? Infinity);
        }
      }
    }
  });

  it("has the documented bounds", () => {
    expect(writeFields.title).toMatchObject({ minLength: 10, maxLength: 90 });
    expect(writeFields.description).toMatchObject({ minLength: 30, maxLength: 5000 });
    expect(writeFields.rooms).toMatchObject({ min: 1, max: 40 });
    expect(writeFields.price).toMatchObject({ min: 1, max: 1_000_000_000_000 });
    expect(writeFields.usable_area_sqm).toMatchObject({ min: 1, max: 500000, decimals: 2 });
    expect(writeFields.parcel).toMatchObject({ minItems: 3, maxItems: 500 });
    expect(writeFields.unit_types).toMatchObject({ maxItems: 50 });
    expect(writeFields.orientations).toMatchObject({ maxItems: 4 });
    expect(writeFields.heating_types).toMatchObject({ maxItems: 12, itemMaxLength: 32 });
  });
});
