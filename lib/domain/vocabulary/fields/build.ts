import type { EnumerationName } from "@/lib/domain/vocabulary/catalog";
import type { BooleanField, ListField, NumberField, TextField } from "./spec";

type Options<F> = Partial<Omit<F, "kind" | "labels">>;

export const text = (ro: string, en: string, options: Options<TextField> = {}): TextField => ({
  kind: "text",
  labels: { ro, en },
  nullable: true,
  ...options,
});

export const choice = (ro: string, en: string, enumeration: EnumerationName, options: Options<TextField> = {}): TextField =>
  text(ro, en, { enumeration, ...options });

export const integer = (
  ro: string,
  en: string,
  min: number | undefined,
  max: number | undefined,
  options: Options<NumberField> = {},
): NumberField => ({
  kind: "integer",
  labels: { ro, en },
  nullable: true,
  ...(min === undefined ? {} : { min }),
  ...(max === undefined ? {} : { max }),
  ...options,
});

export const number = (
  ro: string,
  en: string,
  min: number | undefined,
  max: number | undefined,
  options: Options<NumberField> = {},
): NumberField => ({
  ...integer(ro, en, min, max, options),
  kind: "number",
});

/** Areas are measured to the square centimetre at most: two decimals. */
export const area = (ro: string, en: string, min: number, max: number, options: Options<NumberField> = {}): NumberField =>
  number(ro, en, min, max, { unit: "sqm", decimals: 2, ...options });

export const boolean = (ro: string, en: string, options: Options<BooleanField> = {}): BooleanField => ({
  kind: "boolean",
  labels: { ro, en },
  nullable: true,
  ...options,
});

export const list = (
  ro: string,
  en: string,
  enumeration: EnumerationName,
  maxItems: number,
  options: Options<ListField> = {},
): ListField => ({ kind: "list", labels: { ro, en }, nullable: true, enumeration, maxItems, ...options });
