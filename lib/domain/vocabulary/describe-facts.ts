import { quantity, type Locale } from "@/lib/base/i18n";
import { enumerations } from "./catalog";
import { writeFields, type FieldSpec, type LevelRange, type ParcelPoint, type UnitTypeRow } from "./fields";
import { labelOf, type Enumeration } from "@/lib/base/i18n/labels";
import { subtypesByType, type PropertyType } from "./property-types";
import { unitTypeFields } from "./unit-type-fields";

export interface DescribedFact {
  name: string;
  /** The field's label in the language. */
  label: string;
  /** The value in words: labels for codes, units for measures, yes or no. */
  value: string;
}

/**
 * A listing's facts (its write fields outside the top-level members) as a reader sees them, in
 * the vocabulary's order of fields: each with its label and its value in words, never as codes.
 * A value the vocabulary does not know (a field or code retired since it was written) is shown as
 * it is rather than hidden. A development's unit types are each row in words; a parcel is its number
 * of corners, and with `complete` (a moderator comparing two versions) every corner too.
 */
export function describeFacts(input: WordsInput & { facts: Record<string, unknown> }): DescribedFact[] {
  const { facts, locale } = input;
  const known = Object.entries(writeFields).filter(([name]) => facts[name] !== undefined && facts[name] !== null);
  const unknown = Object.keys(facts).filter((name) => !(name in writeFields) && facts[name] !== undefined && facts[name] !== null);
  return [
    ...known.map(([name, spec]) => ({ name, label: spec.labels[locale], value: valueInWords(spec, facts[name], input) })),
    ...unknown.map((name) => ({ name, label: name, value: JSON.stringify(facts[name]) })),
  ];
}

interface WordsInput {
  type: string;
  locale: Locale;
  words: { yes: string; no: string };
  complete?: boolean;
}

function valueInWords(spec: FieldSpec, value: unknown, input: WordsInput): string {
  const { locale } = input;
  const code = (list: Enumeration, item: unknown) => labelOf(list, item, locale);
  switch (spec.kind) {
    case "boolean":
      return value ? input.words.yes : input.words.no;
    case "integer":
    case "number":
      return quantity(locale, spec.unit && spec.unit !== "price_currency" ? spec.unit : "number", value as number);
    case "list":
      return (value as unknown[]).map((item) => code(enumerations[spec.enumeration], item)).join(", ");
    case "level_range": {
      const range = value as LevelRange;
      return `${code(enumerations.floor_level, range.from)} – ${code(enumerations.floor_level, range.to)}`;
    }
    case "text":
      if (spec.enumeration) return code(enumerations[spec.enumeration], value);
      if (spec.format === "subtype" && input.type in subtypesByType) return code(subtypesByType[input.type as PropertyType], value);
      return String(value);
    case "unit_types":
      return Array.isArray(value) ? value.map((row: UnitTypeRow) => unitTypeInWords(row, input)).join("; ") : JSON.stringify(value);
    case "parcel": {
      if (!Array.isArray(value)) return JSON.stringify(value);
      const count = quantity(locale, "points", value.length);
      // Coordinates keep their decimal point in both languages, as maps and GPS devices show them.
      return input.complete ? `${count}: ${(value as ParcelPoint[]).map(([lon, lat]) => `(${lon}, ${lat})`).join(" ")}` : count;
    }
  }
}

/** "Name: Rooms 2, Area from 55 m², …": the row's members in the vocabulary's order, each with its label. */
function unitTypeInWords(row: UnitTypeRow, input: WordsInput): string {
  const members = Object.entries(unitTypeFields).flatMap(([name, spec]) => {
    const value = row[name as keyof UnitTypeRow];
    if (name === "label" || value === undefined || value === null) return [];
    return [`${spec.labels[input.locale]} ${valueInWords(spec, value, input)}`];
  });
  return [row.label ?? "—", members.join(", ")].filter(Boolean).join(": ");
}
