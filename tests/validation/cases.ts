import type { ValidateListingInput } from "@/lib/domain/listings/validation";
import { rates, valid, variant } from "./fixtures";

export interface Case {
  code: string;
  pointer: string;
  document: Record<string, unknown>;
  options?: Partial<ValidateListingInput>;
}

const bowtie = [
  [26.05, 44.6],
  [26.06, 44.61],
  [26.06, 44.6],
  [26.05, 44.61],
];
const row = valid.development.unit_types[0];

/** At least one invalid input per validation code that applies to listing fields. */
export const fieldCodes: Case[] = [
  { code: "required", pointer: "/title", document: variant("apartmentSale", { title: undefined }) },
  { code: "required", pointer: "/city", document: variant("apartmentSale", { city: null }) },
  { code: "required", pointer: "/type", document: variant("apartmentSale", { type: "  " }) },
  { code: "required", pointer: "/price_currency", document: variant("development", { price_currency: undefined }) },
  { code: "required_if", pointer: "/floor", document: variant("apartmentSale", { floor: undefined }) },
  { code: "required_if", pointer: "/land_area_sqm", document: variant("land", { land_area_sqm: null }) },
  { code: "required_if", pointer: "/construction_status", document: variant("development", { construction_status: undefined }) },
  { code: "required_unless", pointer: "/price", document: variant("house", { price: undefined }) },
  {
    code: "required_with",
    pointer: "/unit_types/1/label",
    document: variant("development", { unit_types: [row, { area_sqm_from: 50, units_count: 3 }] }),
  },
  { code: "string", pointer: "/title", document: variant("apartmentSale", { title: 1234567890 }) },
  { code: "integer", pointer: "/rooms", document: variant("apartmentSale", { rooms: 2.5 }) },
  { code: "integer", pointer: "/price", document: variant("apartmentSale", { price: "185000" }) },
  { code: "numeric", pointer: "/latitude", document: variant("apartmentSale", { latitude: "44.46" }) },
  { code: "boolean", pointer: "/negotiable", document: variant("apartmentSale", { negotiable: "yes" }) },
  { code: "array", pointer: "/features", document: variant("apartmentSale", { features: "fridge" }) },
  { code: "array", pointer: "/parcel/1", document: variant("land", { parcel: [[26.05, 44.6], 5, [26.06, 44.6]] }) },
  { code: "object", pointer: "/unit_types/0", document: variant("development", { unit_types: ["2 camere"] }) },
  { code: "decimal", pointer: "/usable_area_sqm", document: variant("apartmentSale", { usable_area_sqm: 78.125 }) },
  {
    code: "decimal",
    pointer: "/unit_types/0/area_sqm_from",
    document: variant("development", { unit_types: [{ ...row, area_sqm_from: 55.555 }] }),
  },
  { code: "min", pointer: "/title", document: variant("apartmentSale", { title: "Casa mică" }) },
  { code: "min", pointer: "/description", document: variant("apartmentSale", { description: "Apartament frumos, renovat." }) },
  { code: "min", pointer: "/openings_length", document: variant("commercial", { openings_length: -1 }) },
  {
    code: "min",
    pointer: "/parcel",
    document: variant("land", {
      parcel: [
        [26.05, 44.6],
        [26.06, 44.6],
      ],
    }),
  },
  { code: "max", pointer: "/title", document: variant("apartmentSale", { title: `Apartament ${"frumos ".repeat(12)}` }) },
  { code: "max", pointer: "/county", document: variant("apartmentSale", { county: "Ilfov ".repeat(25) }) },
  { code: "max", pointer: "/upfront_percent", document: variant("house", { upfront_percent: 100.5 }) },
  {
    code: "max",
    pointer: "/trade_accepts",
    document: variant("house", { trade_accepts: ["apartment", "house", "land", "vehicle", "commercial"] }),
  },
  { code: "max", pointer: "/heating_types/0", document: variant("house", { heating_types: ["x".repeat(33)] }) },
  { code: "max", pointer: "/unit_types", document: variant("development", { unit_types: Array.from({ length: 51 }, () => row) }) },
  { code: "between", pointer: "/rooms", document: variant("apartmentSale", { rooms: 41 }) },
  { code: "between", pointer: "/latitude", document: variant("apartmentSale", { latitude: 90.5 }) },
  { code: "between", pointer: "/year_built", document: variant("apartmentSale", { year_built: 2030 }) },
  {
    code: "between",
    pointer: "/parcel/2/1",
    document: variant("land", {
      parcel: [
        [26.05, 44.6],
        [26.06, 44.6],
        [26.06, 91],
      ],
    }),
  },
  { code: "between", pointer: "/unit_types/0/units_count", document: variant("development", { unit_types: [{ ...row, units_count: 0 }] }) },
  { code: "gt", pointer: "/upfront_percent", document: variant("house", { upfront_percent: 0 }) },
  { code: "gte", pointer: "/max_nights", document: variant("apartmentNightly", { min_nights: 7, max_nights: 3 }) },
  { code: "gte", pointer: "/surface_office_available", document: variant("office", { surface_office_available: 100 }) },
  { code: "enum", pointer: "/condition", document: variant("apartmentSale", { condition: "shiny" }) },
  { code: "enum", pointer: "/type", document: variant("apartmentSale", { type: "castle" }) },
  { code: "enum", pointer: "/subtype", document: variant("apartmentSale", { subtype: "igloo" }) },
  { code: "enum", pointer: "/orientations/1", document: variant("apartmentSale", { orientations: ["south", "up"] }) },
  { code: "in", pointer: "/subtype", document: variant("apartmentSale", { subtype: "villa" }) },
  { code: "in", pointer: "/price_period", document: variant("apartmentSale", { price_period: "night" }) },
  { code: "distinct", pointer: "/orientations/1", document: variant("apartmentSale", { orientations: ["south", "south"] }) },
  { code: "distinct", pointer: "/features/2", document: variant("apartmentSale", { features: ["fridge", "oven", "fridge"] }) },
  { code: "regex", pointer: "/price_currency", document: variant("apartmentSale", { price_currency: "eur" }) },
  { code: "regex", pointer: "/content_locale", document: variant("apartmentSale", { content_locale: "rom" }) },
  { code: "regex", pointer: "/external_ref", document: variant("apartmentSale", { external_ref: "crm id 42" }) },
  { code: "date_format", pointer: "/delivery_quarter", document: variant("development", { delivery_quarter: "2027-5" }) },
  { code: "date_format", pointer: "/available_from", document: variant("apartmentRent", { available_from: "01.12.2026" }) },
  { code: "url", pointer: "/virtual_tour_url", document: variant("apartmentSale", { virtual_tour_url: "http://tur.example.ro/1" }) },
  { code: "prohibits", pointer: "/upfront_cost", document: variant("apartmentSale", { upfront_percent: 10 }) },
  { code: "iso_country", pointer: "/country", document: variant("apartmentSale", { country: "XX" }) },
  { code: "iso_country", pointer: "/country", document: variant("apartmentSale", { country: "ROU" }) },
  { code: "meaningful_text", pointer: "/title", document: variant("apartmentSale", { title: "aaaaaaaaaaaaaaa" }) },
  {
    code: "meaningful_text",
    pointer: "/description",
    document: variant("apartmentSale", { description: "1234567890 1234567890 1234567890 !!!" }),
  },
  { code: "phone_number_valid", pointer: "/contact_phone", document: variant("apartmentSale", { contact_phone: "12345" }) },
  { code: "valid_parcel_ring", pointer: "/parcel", document: variant("land", { parcel: bowtie }) },
  { code: "invalid_value", pointer: "/floor", document: variant("apartmentSale", { floor: "61" }) },
  {
    code: "invalid_value",
    pointer: "/unit_types/0/floors/to",
    document: variant("development", { unit_types: [{ ...row, floors: { from: "1", to: "roof" } }] }),
  },
  {
    code: "invalid_value",
    pointer: "/type",
    document: variant("apartmentSale", { type: "house" }),
    options: { mode: "patch", previous: valid.apartmentSale },
  },
  {
    code: "invalid_value",
    pointer: "/transaction",
    document: variant("apartmentSale", { transaction: "rent" }),
    options: { mode: "patch", previous: valid.apartmentSale },
  },
  { code: "invalid", pointer: "/status", document: variant("apartmentSale", { status: "active" }) },
  { code: "invalid", pointer: "/photos", document: variant("apartmentSale", { photos: [] }) },
  {
    code: "invalid",
    pointer: "/parcel",
    document: variant("land", { parcel: valid.land.parcel.map(([lng, lat]) => [lat, lng]) }),
  },
];

/** Every cross-field code, at its documented pointer. */
export const crossFieldCodes: Case[] = [
  { code: "transaction_invalid_for_type", pointer: "/transaction", document: variant("development", { transaction: "rent" }) },
  { code: "floor_above_total", pointer: "/floor", document: variant("apartmentSale", { floor: "11" }) },
  { code: "floor_above_total", pointer: "/floor", document: variant("apartmentSale", { subtype: "duplex", floor: "10" }) },
  { code: "upfront_above_price", pointer: "/upfront_cost", document: variant("apartmentSale", { upfront_cost: 185001 }) },
  { code: "below_type_minimum", pointer: "/usable_area_sqm", document: variant("apartmentSale", { usable_area_sqm: 9.99 }) },
  { code: "below_type_minimum", pointer: "/year_built", document: variant("apartmentSale", { year_built: 1849 }) },
  { code: "below_type_minimum", pointer: "/land_area_sqm", document: variant("land", { land_area_sqm: 9 }) },
  { code: "above_type_maximum", pointer: "/rooms", document: variant("apartmentSale", { rooms: 21 }) },
  { code: "above_type_maximum", pointer: "/total_floors", document: variant("house", { total_floors: 7 }) },
  { code: "bedrooms_above_rooms", pointer: "/bedrooms", document: variant("apartmentSale", { bedrooms: 4 }) },
  { code: "built_above_land", pointer: "/built_area_sqm", document: variant("house", { built_area_sqm: 1000.01 }) },
  {
    code: "unfurnished_with_appliances",
    pointer: "/furnished",
    document: variant("apartmentSale", { furnished: "unfurnished", features: ["dishwasher"] }),
  },
  { code: "required", pointer: "/partitioning", document: variant("apartmentSale", { partitioning: undefined }) },
  { code: "heating_none_exclusive", pointer: "/heating_types", document: variant("house", { heating_types: ["none", "wood_stove"] }) },
  { code: "delivery_in_past", pointer: "/delivery_quarter", document: variant("development", { delivery_quarter: "2026-Q3" }) },
  {
    code: "complex_needs_complete_type",
    pointer: "/unit_types",
    document: variant("development", { unit_types: [{ label: "2 camere", area_sqm_from: 55, units_count: 10 }] }),
  },
  { code: "complex_needs_complete_type", pointer: "/unit_types", document: variant("development", { unit_types: undefined }) },
  {
    code: "area_to_below_from",
    pointer: "/unit_types/0/area_sqm_to",
    document: variant("development", { unit_types: [{ ...row, area_sqm_to: 50 }] }),
  },
  {
    code: "floor_range_invalid",
    pointer: "/unit_types/0/floors",
    document: variant("development", { unit_types: [{ ...row, floors: { from: "5", to: "2" } }] }),
  },
  {
    code: "floor_range_invalid",
    pointer: "/unit_types/0/floors",
    document: variant("development", { unit_types: [{ ...row, floors: { from: "ground", to: "9" } }] }),
  },
  { code: "price_currency_not_offered", pointer: "/price_currency", document: variant("apartmentSale", { price_currency: "CHF" }) },
  { code: "price_currency_unavailable", pointer: "/price_currency", document: variant("apartmentSale", { price_currency: "GBP" }) },
  {
    code: "price_currency_unavailable",
    pointer: "/price_currency",
    document: variant("apartmentSale", { price_currency: "RON" }),
    options: { rates: { ...rates, RON: undefined } },
  },
  { code: "price_above_cap", pointer: "/price", document: variant("apartmentSale", { price: 250_000_001 }) },
  { code: "price_above_cap", pointer: "/price", document: variant("apartmentSale", { price: 1_250_000_010, price_currency: "RON" }) },
];
