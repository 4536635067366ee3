import { boolean, choice, integer, list, text } from "./build";
import type { UnitTypesField } from "./spec";

const nightlyRent = { types: ["apartment", "house"], transactions: ["rent"] } as const;

const unitTypes: UnitTypesField = {
  kind: "unit_types",
  labels: { ro: "Tipuri de unități", en: "Unit types" },
  nullable: true,
  maxItems: 50,
  appliesTo: { types: ["development"] },
};

/** Write fields after `openings_length`: those the validation codes name (`contact_phone`, `unit_types`, …) and ours. */
export const extraFields = {
  price_period: choice("Perioada prețului", "Price period", "price_period"),
  reserved: boolean("Rezervat", "Reserved"),
  negotiable: boolean("Negociabil", "Negotiable"),
  available_from: text("Disponibil din", "Available from", { format: "date", appliesTo: { transactions: ["rent"] } }),
  virtual_tour_url: text("Tur virtual", "Virtual tour", { format: "https_url", maxLength: 2048 }),
  contact_phone: text("Telefon de contact", "Contact phone", { format: "phone", maxLength: 32 }),
  features: list("Dotări", "Amenities", "amenity", 100, { itemMaxLength: 64 }),
  external_ref: text("Referința dumneavoastră", "Your reference", { format: "external_ref", minLength: 1, maxLength: 100 }),
  partitioning: choice("Compartimentare", "Layout", "partitioning", { appliesTo: { types: ["apartment"] } }),
  delivery_quarter: text("Termen de livrare", "Delivery term", { format: "quarter", appliesTo: { types: ["development"] } }),
  unit_types: unitTypes,
  min_nights: integer("Minim nopți", "Minimum nights", 1, 365, { unit: "night", appliesTo: nightlyRent }),
  max_nights: integer("Maxim nopți", "Maximum nights", 1, 365, { unit: "night", appliesTo: nightlyRent }),
};
