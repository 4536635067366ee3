import { describe, expect, it } from "vitest";
import { describeEdit } from "@/lib/domain/vocabulary/describe-edit";
import { describeFacts } from "@/lib/domain/vocabulary/describe-facts";

const words = { ro: { yes: "da", no: "nu" }, en: { yes: "yes", no: "no" } };
const facts = {
  rooms: 2,
  usable_area_sqm: 54.5,
  floor: "2",
  comfort: "comfort_1",
  heating_types: ["district_heating"],
  flood_risk: false,
  retired_field: "x",
};

describe("describeFacts: a listing's facts in words", () => {
  it("labels fields and codes in the language, measures with their unit, in the vocabulary's order", () => {
    const en = describeFacts({ facts, type: "apartment", locale: "en", words: words.en });
    expect(Object.fromEntries(en.map((fact) => [fact.label, fact.value]))).toMatchObject({
      Rooms: "2",
      "Usable area": "54.5 m²",
      "Comfort class": "Comfort class 1",
      Heating: "District heating",
      "Flood risk": "no",
    });
    const ro = describeFacts({ facts, type: "apartment", locale: "ro", words: words.ro });
    expect(Object.fromEntries(ro.map((fact) => [fact.label, fact.value]))).toMatchObject({
      "Număr camere": "2",
      "Suprafață utilă": "54,5 m²",
      Confort: "Confort 1",
      Încălzire: "Termoficare",
      "Risc de inundații": "nu",
    });
    // No code is shown where the vocabulary has a label.
    expect(JSON.stringify(en)).not.toMatch(/comfort_1|district_heating/);
  });

  it("shows what the vocabulary does not know as it is, after the known fields, rather than hiding it", () => {
    const described = describeFacts({ facts: { ...facts, comfort: "comfort_9" }, type: "apartment", locale: "en", words: words.en });
    expect(described.find((fact) => fact.name === "comfort")?.value).toBe("comfort_9");
    expect(described.at(-1)).toEqual({ name: "retired_field", label: "retired_field", value: '"x"' });
  });

  const development = {
    type: "development",
    unit_types: [
      { label: "2 rooms", rooms: 2, area_sqm_from: 55, area_sqm_to: 70, floors: { from: "ground", to: "4" }, units_count: 40 },
      { label: "Studio", price: 65000 },
    ],
    parcel: [
      [26.1, 44.4],
      [26.101, 44.4],
      [26.101, 44.401],
    ],
  };

  it("gives each unit type row in words, and a parcel as its corners' count (every corner when complete)", () => {
    const en = Object.fromEntries(
      describeFacts({ facts: development, type: "development", locale: "en", words: words.en }).map((fact) => [fact.name, fact.value]),
    );
    expect(en.unit_types).toBe(
      "2 rooms: Rooms 2, Area from 55 m², Area up to 70 m², Floors Ground floor – Floor 4, Number of units 40; Studio: Price from 65,000",
    );
    expect(en.parcel).toBe("3 points");
    const ro = describeFacts({ facts: development, type: "development", locale: "ro", words: words.ro, complete: true });
    expect(ro.find((fact) => fact.name === "parcel")?.value).toBe("3 puncte: (26.1, 44.4) (26.101, 44.4) (26.101, 44.401)");
    expect(ro.find((fact) => fact.name === "unit_types")?.value).toMatch(/^2 rooms: Camere 2, Suprafață de la 55 m²/);
  });

  it("shows a moderator an edit that changes one unit type member or one parcel corner, the count unchanged", () => {
    const after = structuredClone(development);
    after.unit_types[0].area_sqm_to = 72;
    after.parcel[2] = [26.102, 44.401];
    const changes = describeEdit({ before: development, after, locale: "en", words: words.en });
    expect(changes.map((change) => change.name).sort()).toEqual(["parcel", "unit_types"]);
    const parcel = changes.find((change) => change.name === "parcel")!;
    expect(parcel.before).toContain("(26.101, 44.401)");
    expect(parcel.after).toContain("(26.102, 44.401)");
    const units = changes.find((change) => change.name === "unit_types")!;
    expect(units.before).toContain("Area up to 70 m²");
    expect(units.after).toContain("Area up to 72 m²");
  });
});
