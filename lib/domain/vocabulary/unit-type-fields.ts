import { area, integer, text } from "./fields/build";
import type { LevelRangeField } from "./fields/spec";

/** Two floor level codes, lowest first: `{ "from": "ground", "to": "4" }`. */
const floors: LevelRangeField = { kind: "level_range", labels: { ro: "Etaje", en: "Floors" }, nullable: true };

/** Members of one `unit_types[]` row of a development. `label` is required with any other member. */
export const unitTypeFields = {
  label: text("Denumire", "Name", { minLength: 1, maxLength: 120 }),
  rooms: integer("Camere", "Rooms", 1, 40),
  area_sqm_from: area("Suprafață de la", "Area from", 1, 500000),
  area_sqm_to: area("Suprafață până la", "Area up to", 1, 500000),
  floors,
  units_count: integer("Număr de unități", "Number of units", 1, 5000),
  price: integer("Preț de la", "Price from", 1, 1_000_000_000_000, { unit: "price_currency" }),
};

export type UnitTypeFieldName = keyof typeof unitTypeFields;
