import { describe, expect, it } from "vitest";
import { crossFieldCodes, fieldCodes } from "./cases";
import { check } from "./fixtures";

describe("validation codes", () => {
  it.each([...fieldCodes, ...crossFieldCodes].map((c) => [`${c.code} at ${c.pointer}`, c] as const))("%s", (_name, c) => {
    const result = check(c.document, c.options);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map(({ pointer, code }) => ({ pointer, code }))).toContainEqual({ pointer: c.pointer, code: c.code });
  });

  it("covers every field code that concerns listings and every cross-field code", () => {
    const covered = new Set([...fieldCodes, ...crossFieldCodes].map((c) => c.code));
    const specFieldCodes = [
      "required",
      "required_if",
      "required_unless",
      "required_with",
      "string",
      "integer",
      "numeric",
      "boolean",
      "array",
      "decimal",
      "min",
      "max",
      "between",
      "gt",
      "gte",
      "enum",
      "in",
      "distinct",
      "regex",
      "date_format",
      "url",
      "prohibits",
      "iso_country",
      "meaningful_text",
      "phone_number_valid",
      "valid_parcel_ring",
      "invalid_value",
      "invalid",
    ];
    const specCrossFieldCodes = [
      "transaction_invalid_for_type",
      "floor_above_total",
      "upfront_above_price",
      "below_type_minimum",
      "above_type_maximum",
      "bedrooms_above_rooms",
      "built_above_land",
      "unfurnished_with_appliances",
      "heating_none_exclusive",
      "delivery_in_past",
      "complex_needs_complete_type",
      "area_to_below_from",
      "floor_range_invalid",
      "price_currency_not_offered",
      "price_currency_unavailable",
      "price_above_cap",
    ];
    expect([...specFieldCodes, ...specCrossFieldCodes].filter((code) => !covered.has(code))).toEqual([]);
  });
});
