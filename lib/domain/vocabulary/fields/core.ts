import type { PropertyType } from "@/lib/domain/vocabulary/property-types";
import { boolean, choice, integer, list, number, text, area } from "./build";

const always = { rule: "required" } as const;
/** A listing's country when it gives none: the API reads it so, and the form shows it so. */
export const defaultCountry = "RO";
export const buildings: readonly PropertyType[] = ["apartment", "house", "commercial", "office", "industrial"];
export const buildingsAndProjects: readonly PropertyType[] = [...buildings, "development"];

/** Identity, text, location, size and price: the write fields from `type` to `trade_price_diff`. */
export const coreFields = {
  type: choice("Tip proprietate", "Property type", "property_type", { nullable: false, required: always }),
  transaction: choice("Tip tranzacție", "Transaction", "transaction_type", { nullable: false, required: always }),
  subtype: text("Subtip", "Subtype", { format: "subtype" }),
  title: text("Titlu", "Title", { nullable: false, required: always, minLength: 10, maxLength: 90, format: "meaningful_text" }),
  content_locale: text("Limba textului", "Language of the text", { format: "language" }),
  description: text("Descriere", "Description", {
    nullable: false,
    required: always,
    minLength: 30,
    maxLength: 5000,
    format: "meaningful_text",
  }),
  county: text("Județ", "County", { maxLength: 120 }),
  country: text("Țară", "Country", { format: "iso_country" }),
  city: text("Localitate", "City", { nullable: false, required: always, maxLength: 120 }),
  area: text("Zonă / cartier", "Neighbourhood", { maxLength: 120 }),
  address: text("Adresă", "Address", { maxLength: 255 }),
  street: text("Stradă", "Street", { nullable: false, required: always, maxLength: 255 }),
  street_number: text("Număr", "Street number", { maxLength: 32 }),
  street_manual: boolean("Stradă introdusă manual", "Street typed by hand"),
  landmark: text("Punct de reper", "Landmark", { maxLength: 120 }),
  latitude: number("Latitudine", "Latitude", -90, 90, { nullable: false, required: always, unit: "degree" }),
  longitude: number("Longitudine", "Longitude", -180, 180, { nullable: false, required: always, unit: "degree" }),
  rooms: integer("Număr camere", "Rooms", 1, 40, {
    appliesTo: { types: ["apartment", "house", "office"] },
    required: { rule: "required_if", types: ["apartment", "house"] },
  }),
  bedrooms: integer("Dormitoare", "Bedrooms", 0, 30, { appliesTo: { types: ["apartment", "house"] } }),
  bathrooms: integer("Băi", "Bathrooms", 0, 500, { appliesTo: { types: buildings } }),
  floor: choice("Etaj", "Floor", "floor_level", {
    format: "floor_level",
    appliesTo: { types: ["apartment", "office", "commercial"] },
    required: { rule: "required_if", types: ["apartment"] },
  }),
  total_floors: integer("Regim de înălțime (etaje peste parter)", "Storeys above ground floor", 0, 60, {
    appliesTo: { types: buildingsAndProjects },
  }),
  usable_area_sqm: area("Suprafață utilă", "Usable area", 1, 500000, {
    appliesTo: { types: buildings },
    required: { rule: "required_if", types: buildings },
  }),
  built_area_sqm: area("Suprafață construită", "Built area", 1, 500000, { appliesTo: { types: buildings } }),
  land_area_sqm: area("Suprafață teren", "Land area", 1, 10000000, {
    appliesTo: { types: ["house", "land", "commercial", "industrial", "development"] },
    required: { rule: "required_if", types: ["land"] },
  }),
  year_built: integer("An construcție", "Year built", 1000, 2029, { appliesTo: { types: buildings }, unit: "year" }),
  price: integer("Preț", "Price", 1, 1_000_000_000_000, {
    unit: "price_currency",
    required: { rule: "required_unless", types: ["development"] },
  }),
  // Always required, a development included: its unit type prices are in this currency too.
  price_currency: choice("Monedă", "Currency", "currency", { format: "currency", required: always }),
  deposit_months: integer("Garanție (luni)", "Deposit (months)", 0, 3, {
    unit: "month",
    appliesTo: { transactions: ["rent"] },
  }),
  deposit_amount: integer("Garanție (sumă)", "Deposit (amount)", 0, 1_000_000_000_000, {
    unit: "price_currency",
    appliesTo: { transactions: ["rent"] },
  }),
  no_commission: boolean("Fără comision", "No commission"),
  utilities_included: boolean("Utilități incluse", "Utilities included", { appliesTo: { transactions: ["rent"] } }),
  accepts_trade: boolean("Accept schimb", "Trade accepted", { appliesTo: { transactions: ["sale"] } }),
  trade_accepts: list("Schimb cu", "Trade for", "trade_accept", 4, { appliesTo: { transactions: ["sale"] } }),
  trade_other: text("Alt schimb", "Other trade", { maxLength: 120, appliesTo: { transactions: ["sale"] } }),
  trade_price_diff: choice("Diferență de preț la schimb", "Trade price difference", "trade_diff", {
    appliesTo: { transactions: ["sale"] },
  }),
};
