import { coreFields, defaultCountry } from "@/lib/domain/vocabulary/fields/core";
import { extraFields } from "@/lib/domain/vocabulary/fields/extras";
import { factFields } from "@/lib/domain/vocabulary/fields/facts";
import {
  enumerations,
  floorLevels,
  pricePeriods,
  pricePeriodsFor,
  propertyTypes,
  subtypesByType,
  transactionsByType,
  transactionTypes,
  typeLimits,
  unitTypeFields,
  writeFields,
  type Enumeration,
  type FieldSpec,
  type NumberField,
  type PropertyType,
  type TransactionType,
  type WriteFieldName,
} from "@/lib/domain/vocabulary";
import type { Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { parcelOfText, parcelText } from "./parcel-text";
import { numberOrText, postedUnitTypeRows, storedUnitTypeRows, unitTypeItem, unitTypeValues } from "./unit-type-rows";

/** What the listing is: chosen first, it decides which fields the form asks for. */
export interface ListingKind {
  type: PropertyType;
  transaction: TransactionType;
}

/** One field of the form as the browser shows it: labels in the page's language, the vocabulary's bounds. */
export interface FormFieldView {
  /** The field's name, or a unit type member's (`area_sqm_to`, `floors`). */
  name: string;
  control:
    "text" | "textarea" | "number" | "date" | "url" | "tel" | "select" | "yesno" | "checkboxes" | "parcel" | "unit_types" | "level_range";
  label: string;
  /** The measure's unit ("m²"), or the special `price_currency`. */
  unit?: string;
  /** Needed to submit for moderation (a draft needs none of them). */
  required: boolean;
  min?: number;
  max?: number;
  step?: string;
  minLength?: number;
  maxLength?: number;
  options?: { value: string; label: string }[];
  /** Corners of a parcel, rows of unit types. */
  minItems?: number;
  maxItems?: number;
  /** A unit type row's members, each as a field of its own (the floors as a `level_range` of the floor levels). */
  members?: FormFieldView[];
}

export interface FormSection {
  id: "description" | "location" | "size" | "price" | "facts" | "more";
  fields: FormFieldView[];
}

/** Chosen before the form, never edited in it. */
const notInForm = new Set<string>(["type", "transaction"]);

/**
 * The vocabulary's fields grouped as a holder fills them in: what the listing is, where, how big,
 * for how much; then the facts about the property, then the rest. Each section is one fieldset of
 * the form, so the form reads as a few short parts rather than one long column.
 */
const grouped = {
  description: ["subtype", "title", "content_locale", "description"],
  location: [
    "county",
    "country",
    "city",
    "area",
    "address",
    "street",
    "street_number",
    "street_manual",
    "landmark",
    "latitude",
    "longitude",
  ],
  size: ["rooms", "bedrooms", "bathrooms", "floor", "total_floors", "usable_area_sqm", "built_area_sqm", "land_area_sqm", "year_built"],
  price: [
    "price",
    "price_currency",
    "price_period",
    "negotiable",
    "reserved",
    "deposit_months",
    "deposit_amount",
    "no_commission",
    "utilities_included",
    "accepts_trade",
    "trade_accepts",
    "trade_other",
    "trade_price_diff",
  ],
} as const satisfies Partial<Record<FormSection["id"], readonly WriteFieldName[]>>;
const inGroups = new Set<string>(Object.values(grouped).flat());
const allFields: Readonly<Record<string, FieldSpec>> = { ...coreFields, ...extraFields, ...factFields };
const sectionFields: Record<FormSection["id"], [string, FieldSpec][]> = {
  ...(Object.fromEntries(Object.entries(grouped).map(([id, names]) => [id, names.map((name) => [name, allFields[name]])])) as Record<
    keyof typeof grouped,
    [string, FieldSpec][]
  >),
  facts: Object.entries(factFields),
  more: Object.entries(extraFields).filter(([name]) => !inGroups.has(name)),
};

/** The type and transaction given (a GET parameter or the stored listing), when they make a listing. */
export function kindOf(type: unknown, transaction: unknown): ListingKind | undefined {
  if (!propertyTypes.has(type) || !transactionTypes.has(transaction)) return undefined;
  return transactionsByType[type].includes(transaction) ? { type, transaction } : undefined;
}

export const optionsOf = (list: Enumeration, locale: Locale, codes: readonly string[] = list.codes) =>
  codes.map((code) => ({ value: code, label: list.label(code, locale) }));

/** The form's sections for a kind of listing: only the fields that exist for its type and transaction. */
export function formSections(kind: ListingKind, locale: Locale): FormSection[] {
  return (Object.keys(sectionFields) as FormSection["id"][]).map((id) => ({
    id,
    fields: sectionFields[id].flatMap(([name, spec]) =>
      notInForm.has(name) || !applies(spec, kind) ? [] : [viewOf(name as WriteFieldName, spec, kind, locale)],
    ),
  }));
}

function applies(spec: FieldSpec, { type, transaction }: ListingKind): boolean {
  const where = spec.appliesTo;
  return (!where?.types || where.types.includes(type)) && (!where?.transactions || where.transactions.includes(transaction));
}

function isRequired(spec: FieldSpec, { type }: ListingKind): boolean {
  const rule = spec.required;
  if (!rule) return false;
  if (rule.rule === "required") return true;
  return rule.rule === "required_if" ? rule.types.includes(type) : !rule.types.includes(type);
}

/** A number's control: its unit, its bounds (the type's own, where it has them) and its step. */
function numberView(
  base: Pick<FormFieldView, "name" | "label" | "required">,
  spec: NumberField,
  limits: { min?: number; max?: number },
  locale: Locale,
): FormFieldView {
  const unitLabels: Readonly<Record<string, string>> = pageMessages(locale).listingForm.unitLabels;
  const unit = spec.unit === "price_currency" ? "price_currency" : spec.unit ? unitLabels[spec.unit] : undefined;
  return {
    ...base,
    control: "number",
    unit: unit || undefined,
    min: spec.exclusiveMin ? undefined : (limits.min ?? spec.min),
    max: limits.max ?? spec.max,
    step: spec.kind === "integer" ? "1" : spec.decimals ? String(10 ** -spec.decimals) : "any",
  };
}

/** The members of a unit type row, with the vocabulary's labels, units and bounds (a row has no type limits). */
function unitTypeMembers(locale: Locale): FormFieldView[] {
  return Object.entries(unitTypeFields).map(([name, spec]) => {
    const base = { name, label: spec.labels[locale], required: false };
    if (spec.kind === "level_range") return { ...base, control: "level_range", options: optionsOf(floorLevels, locale) };
    if (spec.kind === "text") return { ...base, control: "text", minLength: spec.minLength, maxLength: spec.maxLength };
    return numberView(base, spec, {}, locale);
  });
}

function viewOf(name: WriteFieldName, spec: FieldSpec, kind: ListingKind, locale: Locale): FormFieldView {
  const base = { name, label: spec.labels[locale], required: isRequired(spec, kind) };
  switch (spec.kind) {
    case "integer":
    case "number":
      return numberView(base, spec, typeLimits[kind.type][name] ?? {}, locale);
    case "parcel":
      return { ...base, control: "parcel", minItems: spec.minItems, maxItems: spec.maxItems };
    case "unit_types":
      return { ...base, control: "unit_types", maxItems: spec.maxItems, members: unitTypeMembers(locale) };
    case "boolean":
      return { ...base, control: "yesno" };
    case "list":
      return { ...base, control: "checkboxes", options: optionsOf(enumerations[spec.enumeration], locale) };
    case "text": {
      const lengths = { minLength: spec.minLength, maxLength: spec.maxLength };
      if (spec.format === "subtype") return { ...base, control: "select", options: optionsOf(subtypesByType[kind.type], locale) };
      if (name === "price_period") {
        return { ...base, control: "select", options: optionsOf(pricePeriods, locale, pricePeriodsFor(kind.type, kind.transaction)) };
      }
      if (spec.enumeration) return { ...base, control: "select", options: optionsOf(enumerations[spec.enumeration], locale) };
      if (spec.format === "date") return { ...base, control: "date" };
      if (spec.format === "https_url") return { ...base, ...lengths, control: "url" };
      if (spec.format === "phone") return { ...base, ...lengths, control: "tel" };
      return { ...base, ...lengths, control: (spec.maxLength ?? 0) > 255 ? "textarea" : "text" };
    }
    default:
      throw new Error(`no form control for ${name}`);
  }
}

const fieldNames = (sections: FormSection[]) => sections.flatMap((section) => section.fields);

/**
 * The posted form as the write document the API takes (merge-patch semantics): every field of the
 * form, an empty one as `null` (it empties the field); a number that does not parse is sent as typed,
 * so the validator refuses it with its own code. Unit types are the rows filled in (blank ones
 * dropped, `null` when none); the parcel is the textarea's corners (`parcelOfText`).
 */
export function documentOf(form: FormData, sections: FormSection[]): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const field of fieldNames(sections)) {
    if (field.control === "unit_types") {
      const rows = postedUnitTypeRows(form, field.maxItems ?? 0).map(unitTypeItem);
      document[field.name] = rows.length ? rows : null;
      continue;
    }
    if (field.control === "parcel") {
      const raw = form.get(field.name);
      document[field.name] = parcelOfText(typeof raw === "string" ? raw : "", field.maxItems ?? 0);
      continue;
    }
    if (field.control === "checkboxes") {
      const chosen = form.getAll(field.name).filter((value): value is string => typeof value === "string");
      document[field.name] = chosen.length ? chosen : null;
      continue;
    }
    const raw = form.get(field.name);
    const text = typeof raw === "string" ? raw.trim() : "";
    if (text === "") document[field.name] = null;
    else if (field.control === "yesno") document[field.name] = text === "yes";
    else if (field.control === "number") document[field.name] = numberOrText(text);
    else document[field.name] = text;
  }
  return document;
}

/** A parcel of 500 corners typed with many decimals runs past the other fields' 10 000 characters. */
const longestParcelText = 50_000;

/**
 * What the form's fields show: the posted texts after a refusal (lists as space-separated codes,
 * unit types as `unit_types.<row>.<member>` with the blank rows dropped, so that the rows are
 * numbered as the document sent and the API's pointers name them).
 */
export function postedValues(form: FormData, sections: FormSection[]): Record<string, string> {
  return Object.fromEntries(
    fieldNames(sections).flatMap((field) => {
      if (field.control === "unit_types") return Object.entries(unitTypeValues(postedUnitTypeRows(form, field.maxItems ?? 0)));
      if (field.control === "checkboxes") return [[field.name, form.getAll(field.name).map(String).join(" ")]];
      const raw = form.get(field.name);
      const longest = field.control === "parcel" ? longestParcelText : 10_000;
      return [[field.name, typeof raw === "string" ? raw.slice(0, longest) : ""]];
    }),
  );
}

/** What the form shows for a field the listing does not give: what the API reads then (the country, `RO`). */
export const unsaidValues: Readonly<Record<string, string>> = { country: defaultCountry };

/** What the form's fields show for a stored listing. */
export function storedValues(fields: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!(name in writeFields) || value === null || value === undefined) continue;
    if (name === "unit_types") Object.assign(values, unitTypeValues(storedUnitTypeRows(value)));
    else if (name === "parcel") values[name] = parcelText(value);
    else if (typeof value === "boolean") values[name] = value ? "yes" : "no";
    else if (Array.isArray(value)) values[name] = value.join(" ");
    else if (typeof value === "string" || typeof value === "number") values[name] = String(value);
  }
  return values;
}
