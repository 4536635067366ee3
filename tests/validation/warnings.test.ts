import { describe, expect, it } from "vitest";
import { check, valid, variant } from "./fixtures";

describe("warnings: ignored without refusing the request", () => {
  it("drops fields that do not exist for the type or the transaction", () => {
    const result = check(variant("land", { rooms: 3, floor: "2", deposit_months: 1, partitioning: "detached" }));
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.warnings).toEqual([
      { pointer: "/rooms", code: "field_not_applicable" },
      { pointer: "/floor", code: "field_not_applicable" },
      { pointer: "/deposit_months", code: "field_not_applicable" },
      { pointer: "/partitioning", code: "field_not_applicable" },
    ]);
    expect(result.value).not.toHaveProperty("rooms");
    expect(result.value).not.toHaveProperty("deposit_months");
  });

  it("does not validate a field it ignores, and says nothing of an ignored null", () => {
    const result = check(variant("land", { rooms: "many", floor: null }));
    expect(result).toEqual({ ok: true, value: expect.any(Object), warnings: [{ pointer: "/rooms", code: "field_not_applicable" }] });
  });

  it("drops unknown amenities at their index", () => {
    const result = check(variant("apartmentSale", { features: ["fridge", "helipad", "oven", "moat"] }));
    expect(result).toMatchObject({
      ok: true,
      value: { features: ["fridge", "oven"] },
      warnings: [
        { pointer: "/features/1", code: "unknown_amenity" },
        { pointer: "/features/3", code: "unknown_amenity" },
      ],
    });
  });

  it("ignores unknown members, also inside a unit type row", () => {
    const development = valid.development;
    const result = check({ ...development, colour: "blue", unit_types: [{ ...development.unit_types[0], balcony: true }] });
    expect(result).toMatchObject({
      ok: true,
      warnings: [
        { pointer: "/unit_types/0/balcony", code: "unknown_field" },
        { pointer: "/colour", code: "unknown_field" },
      ],
    });
  });

  it("accepts retired codes, replaced by their successors", () => {
    const result = check(
      variant("apartmentSale", { subtype: "mansard", heating_types: ["central_heating"], features: ["wifi", "internet"] }),
    );
    expect(result).toMatchObject({
      ok: true,
      value: { subtype: "standard", heating_types: ["district_heating"], features: ["internet"] },
      warnings: [
        { pointer: "/subtype", code: "retired_code" },
        { pointer: "/heating_types/0", code: "retired_code" },
        { pointer: "/features/0", code: "retired_code" },
      ],
    });
  });

  it("keeps warnings next to errors when the request is refused", () => {
    const result = check(variant("land", { rooms: 3, title: null }));
    expect(result).toEqual({
      ok: false,
      errors: [{ pointer: "/title", code: "required" }],
      warnings: [{ pointer: "/rooms", code: "field_not_applicable" }],
    });
  });
});
