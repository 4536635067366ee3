import { describe, expect, it } from "vitest";
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
});
