import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { priceCapEur, type CurrencyRates } from "@/lib/domain/currency";
import { buildSchemaDocument, writeFieldNames } from "@/lib/domain/vocabulary";

const rates: CurrencyRates = {
  RON: { eurPerUnit: 0.2011, updatedAt: new Date("2026-11-20T09:00:00Z") },
  USD: { eurPerUnit: 0.92, updatedAt: new Date("2026-11-20T09:00:00Z") },
};
const hash = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");

describe("GET /schema document", () => {
  it("is plain JSON and the same for the same rates, so its hash is a stable ETag", () => {
    const document = buildSchemaDocument({ rates });
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    expect(hash(buildSchemaDocument({ rates: { ...rates } }))).toBe(hash(document));
    const moved = { ...rates, RON: { eurPerUnit: 0.2012, updatedAt: new Date("2026-11-21T09:00:00Z") } };
    expect(hash(buildSchemaDocument({ rates: moved }))).not.toBe(hash(document));
  });

  it("lists currencies with their reference rates; EUR is 1; a currency without a rate is unavailable", () => {
    const { currencies, base_currency, price_cap_eur } = buildSchemaDocument({ rates });
    expect(base_currency).toBe("EUR");
    expect(price_cap_eur).toBe(priceCapEur);
    expect(currencies).toEqual([
      { code: "EUR", labels: { ro: "Euro", en: "Euro" }, eur_per_unit: 1, rate_updated_at: null, available: true },
      { code: "RON", labels: expect.any(Object), eur_per_unit: 0.2011, rate_updated_at: "2026-11-20T09:00:00.000Z", available: true },
      { code: "USD", labels: expect.any(Object), eur_per_unit: 0.92, rate_updated_at: "2026-11-20T09:00:00.000Z", available: true },
      { code: "GBP", labels: expect.any(Object), eur_per_unit: null, rate_updated_at: null, available: false },
    ]);
  });

  it("gives each property type its transactions, subtypes and limits", () => {
    const { property_types } = buildSchemaDocument({ rates });
    const development = property_types.find((type) => type.code === "development");
    expect(development).toMatchObject({ transactions: ["sale"], labels: { ro: "Proiect rezidențial nou" } });
    expect(property_types.find((type) => type.code === "apartment")?.subtypes).toContainEqual({
      code: "studio",
      labels: { ro: "Garsonieră", en: "Studio" },
    });
  });

  it("lists every documented enumeration, amenities with their appliance flag, and retired codes", () => {
    const { enumerations, retired } = buildSchemaDocument({ rates });
    for (const name of [
      "property_type",
      "transaction_type",
      "trade_accept",
      "trade_diff",
      "property_condition",
      "furnished_type",
      "energy_certificate",
      "energy_certificate_status",
      "window_type",
      "roof_type",
      "access_type",
      "attic_type",
      "underground_level",
      "land_classification",
      "building_type",
      "construction_status",
      "comfort",
      "orientation",
      "seismic_risk",
      "road_type",
      "pedestrian_traffic",
      "material",
      "heating_type",
      "floor_level",
      "partitioning",
      "amenity",
      "photo_room",
      "price_period",
      "currency",
    ]) {
      expect(enumerations, name).toHaveProperty(name);
    }
    expect(enumerations.amenity).toContainEqual(expect.objectContaining({ code: "fridge", appliance: true, group: "appliances" }));
    expect(enumerations.price_period).toContainEqual(
      expect.objectContaining({ code: "night", transactions: ["rent"], types: ["apartment", "house"] }),
    );
    expect(retired).toContainEqual(expect.objectContaining({ enumeration: "amenity", code: "wifi", successor: "internet" }));
  });

  it("describes every write field: type, unit, bounds, where it applies and whether it is required", () => {
    const { fields, unit_type_fields } = buildSchemaDocument({ rates });
    expect(Object.keys(fields)).toEqual(writeFieldNames);
    expect(fields.usable_area_sqm).toEqual({
      type: "number",
      nullable: true,
      labels: { ro: "Suprafață utilă", en: "Usable area" },
      unit: "sqm",
      minimum: 1,
      maximum: 500000,
      decimals: 2,
      applies_to: { types: ["apartment", "house", "commercial", "office", "industrial"], transactions: ["sale", "rent"] },
      required: { rule: "required_if", types: ["apartment", "house", "commercial", "office", "industrial"] },
    });
    expect(fields.title).toMatchObject({ type: "string", nullable: false, min_length: 10, max_length: 90, required: { rule: "required" } });
    expect(fields.deposit_months).toMatchObject({ applies_to: { transactions: ["rent"] }, required: null });
    expect(unit_type_fields.floors).toMatchObject({ type: "object", members: { from: "floor_level", to: "floor_level" } });
  });
});
