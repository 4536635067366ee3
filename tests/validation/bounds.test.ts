import { describe, expect, it } from "vitest";
import { check, variant, type Fixture } from "./fixtures";

const longTitle = "Apartament luminos cu trei camere și vedere spre parc, renovat complet, în zona Floreasca din București";

/** [fixture, field, lowest accepted, highest accepted, just below, just above] */
const ranges: [Fixture, string, unknown, unknown, unknown, unknown][] = [
  ["apartmentSale", "title", "Vând casă.", longTitle.slice(0, 90), "Vând casă", longTitle.slice(0, 91)],
  ["apartmentSale", "latitude", -90, 90, -90.000001, 90.000001],
  ["apartmentSale", "longitude", -180, 180, -180.5, 180.5],
  ["office", "rooms", 1, 40, 0, 41],
  ["apartmentSale", "bathrooms", 0, 500, -1, 501],
  ["land", "land_area_sqm", 10, 10_000_000, 9.99, 10_000_000.01],
  ["apartmentRent", "deposit_months", 0, 3, -1, 4],
  ["apartmentRent", "price", 1, 250_000_000, 0, 1_000_000_000_001],
  ["land", "pot", 0, 100, -0.5, 100.5],
  ["land", "cut", 0, 20, -1, 20.01],
  ["house", "upfront_percent", 0.01, 100, 0, 100.01],
  ["apartmentSale", "year_built", 1850, 2029, undefined, 2030],
  ["house", "orientations", [], ["north", "south", "east", "west"], undefined, ["north", "south", "east", "west", "north_east"]],
  ["apartmentSale", "county", "", "x".repeat(120), undefined, "x".repeat(121)],
];

describe("bounds are inclusive at both ends", () => {
  it.each(ranges)("%s.%s", (fixture, field, lowest, highest, below, above) => {
    expect(check(variant(fixture, { [field]: lowest })).ok, "lowest").toBe(true);
    expect(check(variant(fixture, { [field]: highest })).ok, "highest").toBe(true);
    if (below !== undefined) expect(pointersOf(check(variant(fixture, { [field]: below }))), "below").toContain(`/${field}`);
    if (above !== undefined) expect(pointersOf(check(variant(fixture, { [field]: above }))), "above").toContain(`/${field}`);
  });

  it("the price ceiling is inclusive too: exactly the cap in euros is accepted", () => {
    expect(check(variant("apartmentRent", { price: 1_250_000_000, price_currency: "RON" })).ok).toBe(true);
  });
});

function pointersOf(result: ReturnType<typeof check>): string[] {
  return result.ok ? [] : result.errors.map((error) => error.pointer);
}
