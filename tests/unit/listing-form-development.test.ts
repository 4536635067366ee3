import { describe, expect, it } from "vitest";
import { documentOf, formSections, postedValues, storedValues } from "@/lib/adapters/portal/listing-form";
import { cornersOfText, outlinePoints, parcelOfText, parcelText } from "@/lib/adapters/portal/parcel-text";
import { controlOfPointer, unitTypeRowsOfValues } from "@/lib/adapters/portal/unit-type-rows";

/**
 * A development's unit types and a parcel outline in the listing form: the posted form as the
 * write document, the texts kept after a refusal, a stored listing as the form's values, and the
 * API's pointers as the controls their errors go next to.
 */

const development = formSections({ type: "development", transaction: "sale" }, "en");
const fieldsOf = (sections: typeof development) => sections.flatMap((section) => section.fields);

const formOf = (entries: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(entries)) form.set(name, value);
  return form;
};

describe("the form's sections", () => {
  it("give a development the unit types (members with the vocabulary's labels, units and bounds) and the parcel", () => {
    const unitTypes = fieldsOf(development).find((field) => field.name === "unit_types");
    expect(unitTypes).toMatchObject({ control: "unit_types", label: "Unit types", maxItems: 50 });
    expect(unitTypes?.members?.map((member) => member.name)).toEqual([
      "label",
      "rooms",
      "area_sqm_from",
      "area_sqm_to",
      "floors",
      "units_count",
      "price",
    ]);
    expect(unitTypes?.members?.find((member) => member.name === "area_sqm_to")).toMatchObject({
      control: "number",
      label: "Area up to",
      unit: "m²",
      min: 1,
      max: 500000,
      step: "0.01",
    });
    expect(unitTypes?.members?.find((member) => member.name === "price")).toMatchObject({ unit: "price_currency", step: "1" });
    const floors = unitTypes?.members?.find((member) => member.name === "floors");
    expect(floors?.control).toBe("level_range");
    expect(floors?.options?.slice(0, 3)).toEqual([
      { value: "basement", label: "Basement" },
      { value: "semi_basement", label: "Semi-basement" },
      { value: "ground", label: "Ground floor" },
    ]);
    const ro = fieldsOf(formSections({ type: "development", transaction: "sale" }, "ro"));
    expect(ro.find((field) => field.name === "unit_types")?.members?.[3].label).toBe("Suprafață până la");
    expect(fieldsOf(development).find((field) => field.name === "parcel")).toMatchObject({ control: "parcel", minItems: 3, maxItems: 500 });
  });

  it("give the parcel to land but unit types only to a development, and neither to a flat", () => {
    const land = fieldsOf(formSections({ type: "land", transaction: "sale" }, "en")).map((field) => field.name);
    expect(land).toContain("parcel");
    expect(land).not.toContain("unit_types");
    const flat = fieldsOf(formSections({ type: "apartment", transaction: "rent" }, "en")).map((field) => field.name);
    expect(flat).not.toContain("parcel");
    expect(flat).not.toContain("unit_types");
  });
});

describe("unit types in the posted form", () => {
  const posted = formOf({
    "unit_types.0.label": "  Două camere ",
    "unit_types.0.rooms": "2",
    "unit_types.0.area_sqm_from": "54,5",
    "unit_types.0.area_sqm_to": "60",
    "unit_types.0.floors_from": "ground",
    "unit_types.0.floors_to": "4",
    "unit_types.0.units_count": "12",
    "unit_types.0.price": "98000",
    // A blank row between two filled ones (and one after) is dropped: row 2 becomes the document's 1.
    "unit_types.1.label": " ",
    "unit_types.1.floors_from": "",
    "unit_types.2.label": "Penthouse",
    "unit_types.2.area_sqm_from": "a lot",
    "unit_types.2.floors_to": "attic",
    "unit_types.3.label": "",
    // Not a member: never read.
    "unit_types.0.owner": "x",
  });

  it("become the document's rows: members trimmed, numbers parsed, what does not parse sent as typed, blank rows dropped", () => {
    expect(documentOf(posted, development).unit_types).toEqual([
      {
        label: "Două camere",
        rooms: 2,
        area_sqm_from: 54.5,
        area_sqm_to: 60,
        floors: { from: "ground", to: "4" },
        units_count: 12,
        price: 98000,
      },
      // One end of the floors chosen: sent with that end only, so the validator names the missing one.
      { label: "Penthouse", area_sqm_from: "a lot", floors: { to: "attic" } },
    ]);
  });

  it("are null when no row is filled in", () => {
    expect(documentOf(formOf({ "unit_types.0.label": "", "unit_types.1.price": "  " }), development).unit_types).toBeNull();
    expect(documentOf(new FormData(), development).unit_types).toBeNull();
  });

  it("are kept as typed after a refusal, numbered as the document sent them", () => {
    const values = postedValues(posted, development);
    expect(values).toMatchObject({
      "unit_types.0.label": "  Două camere ",
      "unit_types.0.area_sqm_from": "54,5",
      "unit_types.1.label": "Penthouse",
      "unit_types.1.area_sqm_from": "a lot",
      "unit_types.1.floors_to": "attic",
    });
    expect(Object.keys(values).filter((name) => name.startsWith("unit_types.2"))).toEqual([]);
    expect(unitTypeRowsOfValues(values).map((row) => row.label)).toEqual(["  Două camere ", "Penthouse"]);
  });

  it("read the rows in the order of their numbers (a row removed in the browser leaves a gap), at most one over the limit", () => {
    const gapped = formOf({ "unit_types.10.label": "Ten", "unit_types.9.label": "Nine", "unit_types.99999.label": "Too far a number" });
    expect(documentOf(gapped, development).unit_types).toEqual([{ label: "Nine" }, { label: "Ten" }]);
    const many = new FormData();
    for (let row = 0; row < 80; row++) many.set(`unit_types.${row}.label`, `Row ${row}`);
    expect((documentOf(many, development).unit_types as unknown[]).length).toBe(51);
  });

  it("come back from a stored listing as the form's values, and round-trip to the same document", () => {
    const stored = {
      type: "development",
      unit_types: [
        { label: "Studio", rooms: 1, area_sqm_from: 35.5, area_sqm_to: null, floors: { from: "1", to: "3" }, units_count: 8, price: 60000 },
        { label: "Trei camere", price: 150000 },
      ],
    };
    const values = storedValues(stored);
    expect(values).toEqual({
      type: "development",
      "unit_types.0.label": "Studio",
      "unit_types.0.rooms": "1",
      "unit_types.0.area_sqm_from": "35.5",
      "unit_types.0.floors_from": "1",
      "unit_types.0.floors_to": "3",
      "unit_types.0.units_count": "8",
      "unit_types.0.price": "60000",
      "unit_types.1.label": "Trei camere",
      "unit_types.1.price": "150000",
    });
    expect(documentOf(formOf(values), development).unit_types).toEqual([
      { label: "Studio", rooms: 1, area_sqm_from: 35.5, floors: { from: "1", to: "3" }, units_count: 8, price: 60000 },
      { label: "Trei camere", price: 150000 },
    ]);
  });
});

describe("the parcel outline in the posted form", () => {
  it("reads one corner a line, longitude first, with commas, semicolons, spaces or decimal commas", () => {
    expect(parcelOfText("26.1, 44.4\n26.2;44.4\n\n  26.2 44.5  \n26,1 44,5\n[26.1, 44.4],", 500)).toEqual([
      [26.1, 44.4],
      [26.2, 44.4],
      [26.2, 44.5],
      [26.1, 44.5],
      [26.1, 44.4],
    ]);
    expect(parcelOfText("  \n ", 500)).toBeNull();
  });

  it("takes a pasted GeoJSON Polygon, a Feature of one, or its coordinates (the outer ring)", () => {
    const ring = [
      [26.1, 44.4],
      [26.2, 44.4],
      [26.2, 44.5],
      [26.1, 44.4],
    ];
    expect(parcelOfText(JSON.stringify({ type: "Polygon", coordinates: [ring, [[0, 0]]] }), 500)).toEqual(ring);
    expect(
      parcelOfText(JSON.stringify({ type: "Feature", properties: {}, geometry: { type: "Polygon", coordinates: [ring] } }), 500),
    ).toEqual(ring);
    expect(parcelOfText(JSON.stringify([ring]), 500)).toEqual(ring);
    expect(parcelOfText(JSON.stringify(ring), 500)).toEqual(ring);
    // JSON that is no outline goes as it is, for the validator to refuse.
    expect(parcelOfText('{"type":"Point","coordinates":[26,44]}', 500)).toEqual({ type: "Point", coordinates: [26, 44] });
  });

  it("sends what does not parse as typed, so the validator refuses it at its own pointer", () => {
    expect(parcelOfText("26.1, 44.4\nnorth corner, 44.5\n26.2\n26.2, 44.5", 500)).toEqual([
      [26.1, 44.4],
      ["north corner", 44.5],
      "26.2",
      [26.2, 44.5],
    ]);
    const many = Array.from({ length: 900 }, (_, index) => `26.${index}, 44.4`).join("\n");
    expect((parcelOfText(many, 500) as unknown[]).length).toBe(501);
  });

  it("goes into the document, is kept as typed after a refusal and comes back from a stored listing", () => {
    const text = "26.1, 44.4\n26.2, 44.4\n26.2, 44.5";
    const form = formOf({ parcel: text });
    expect(documentOf(form, development).parcel).toEqual([
      [26.1, 44.4],
      [26.2, 44.4],
      [26.2, 44.5],
    ]);
    expect(documentOf(formOf({ parcel: "" }), development).parcel).toBeNull();
    expect(postedValues(formOf({ parcel: "oops\n26.2, 44.4" }), development).parcel).toBe("oops\n26.2, 44.4");
    const stored = storedValues({ parcel: documentOf(form, development).parcel });
    expect(stored).toEqual({ parcel: text });
    expect(parcelText(null)).toBe("");
  });

  it("draws a preview only of a text whose every line is a corner in bounds, at least three", () => {
    expect(cornersOfText("26.1, 44.4\n26.2, 44.4\n26.2, 44.5", 500)).toHaveLength(3);
    expect(cornersOfText("26.1, 44.4\n26.2, 44.4", 500)).toBeUndefined();
    expect(cornersOfText("26.1, 44.4\n26.2, 44.4\nx, 44.5", 500)).toBeUndefined();
    expect(cornersOfText("26.1, 44.4\n26.2, 44.4\n26.2, 144.5", 500)).toBeUndefined();
    // A square parcel stays square (longitude shrunk by the latitude's cosine), north up, within the margin.
    const points = outlinePoints(
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ],
      100,
      0,
    );
    expect(points).toBe("0,100 100,100 100,0 0,0");
  });
});

describe("an error's pointer names a control", () => {
  it("maps a unit type row's member to that row's control, its floors as one, anything else to its field", () => {
    expect(controlOfPointer("/unit_types/2/area_sqm_to")).toBe("unit_types.2.area_sqm_to");
    expect(controlOfPointer("/unit_types/0/label")).toBe("unit_types.0.label");
    expect(controlOfPointer("/unit_types/1/floors")).toBe("unit_types.1.floors");
    expect(controlOfPointer("/unit_types/1/floors/to")).toBe("unit_types.1.floors");
    expect(controlOfPointer("/unit_types")).toBe("unit_types");
    expect(controlOfPointer("/unit_types/3")).toBe("unit_types");
    expect(controlOfPointer("/unit_types/3/nonsense")).toBe("unit_types");
    expect(controlOfPointer("/parcel/3/0")).toBe("parcel");
    expect(controlOfPointer("/parcel")).toBe("parcel");
    expect(controlOfPointer("/usable_area_sqm")).toBe("usable_area_sqm");
    expect(controlOfPointer("")).toBe("");
  });
});
