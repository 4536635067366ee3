import { quantity, type Locale } from "@/lib/platform/i18n";
import { enumerations } from "./catalog";
import { writeFields, type FieldSpec, type LevelRange } from "./fields";
import { labelOf, type Enumeration } from "./labels";
import { subtypesByType, type PropertyType } from "./property-types";

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
 * it is rather than hidden.
 */
export function describeFacts(input: {
  facts: Record<string, unknown>;
  type: string;
  locale: Locale;
  words: { yes: string; no: string };
}): DescribedFact[] {
  const { facts, locale } = input;
  const known = Object.entries(writeFields).filter(([name]) => facts[name] !== undefined && facts[name] !== null);
  const unknown = Object.keys(facts).filter((name) => !(name in writeFields) && facts[name] !== undefined && facts[name] !== null);
  return [
    ...known.map(([name, spec]) => ({ name, label: spec.labels[locale], value: valueInWords(spec, facts[name], input) })),
    ...unknown.map((name) => ({ name, label: name, value: JSON.stringify(facts[name]) })),
  ];
}

function valueInWords(
  spec: FieldSpec,
  value: unknown,
  input: { type: string; locale: Locale; words: { yes: string; no: string } },
): string {
  const { locale } = input;
  const code = (list: Enumeration, item: unknown) => labelOf(list, item, locale);
  switch (spec.kind) {
    case "boolean":
      return value ? input.words.yes : input.words.no;
    case "integer":
    case "number":
      return spec.unit && spec.unit !== "price_currency"
        ? quantity(locale, spec.unit, (value as number).toLocaleString(locale === "ro" ? "ro-RO" : "en-GB"))
        : (value as number).toLocaleString(locale === "ro" ? "ro-RO" : "en-GB");
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
    default:
      return Array.isArray(value) ? quantity(locale, "items", value.length) : JSON.stringify(value);
  }
}
