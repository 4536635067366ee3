import { coreFields } from "@/lib/domain/vocabulary/fields/core";
import { extraFields } from "@/lib/domain/vocabulary/fields/extras";
import { factFields } from "@/lib/domain/vocabulary/fields/facts";
import {
  enumerations,
  pricePeriods,
  pricePeriodsFor,
  propertyTypes,
  subtypesByType,
  transactionsByType,
  transactionTypes,
  typeLimits,
  writeFields,
  type Enumeration,
  type FieldSpec,
  type PropertyType,
  type TransactionType,
  type WriteFieldName,
} from "@/lib/domain/vocabulary";
import { quantity, type Locale } from "@/lib/platform/i18n";

/** What the listing is: chosen first, it decides which fields the form asks for. */
export interface ListingKind {
  type: PropertyType;
  transaction: TransactionType;
}

/** One field of the form as the browser shows it: labels in the page's language, the vocabulary's bounds. */
export interface FormFieldView {
  name: WriteFieldName;
  control: "text" | "textarea" | "number" | "date" | "url" | "tel" | "select" | "yesno" | "checkboxes";
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
}

export interface FormSection {
  id: "main" | "facts" | "more";
  fields: FormFieldView[];
}

/** Chosen before the form, never edited in it; the parcel and unit types have no form control (the API sets them). */
const notInForm = new Set<string>(["type", "transaction", "parcel", "unit_types"]);

const sectionFields = { main: coreFields, facts: factFields, more: extraFields } as const;

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
    fields: Object.entries(sectionFields[id]).flatMap(([name, spec]) =>
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

function viewOf(name: WriteFieldName, spec: FieldSpec, kind: ListingKind, locale: Locale): FormFieldView {
  const base = { name, label: spec.labels[locale], required: isRequired(spec, kind) };
  switch (spec.kind) {
    case "integer":
    case "number": {
      const limits = typeLimits[kind.type][name] ?? {};
      const unit = spec.unit === "price_currency" ? "price_currency" : spec.unit ? quantity(locale, spec.unit, "").trim() : undefined;
      return {
        ...base,
        control: "number",
        unit: unit || undefined,
        min: spec.exclusiveMin ? undefined : (limits.min ?? spec.min),
        max: limits.max ?? spec.max,
        step: spec.kind === "integer" ? "1" : spec.decimals ? String(10 ** -spec.decimals) : "any",
      };
    }
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
 * so the validator refuses it with its own code.
 */
export function documentOf(form: FormData, sections: FormSection[]): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const field of fieldNames(sections)) {
    if (field.control === "checkboxes") {
      const chosen = form.getAll(field.name).filter((value): value is string => typeof value === "string");
      document[field.name] = chosen.length ? chosen : null;
      continue;
    }
    const raw = form.get(field.name);
    const text = typeof raw === "string" ? raw.trim() : "";
    if (text === "") document[field.name] = null;
    else if (field.control === "yesno") document[field.name] = text === "yes";
    else if (field.control === "number") {
      const number = Number(text.replace(",", "."));
      document[field.name] = Number.isFinite(number) ? number : text;
    } else document[field.name] = text;
  }
  return document;
}

/** What the form's fields show: the posted texts after a refusal (lists as space-separated codes). */
export function postedValues(form: FormData, sections: FormSection[]): Record<string, string> {
  return Object.fromEntries(
    fieldNames(sections).map((field) => {
      if (field.control === "checkboxes") return [field.name, form.getAll(field.name).map(String).join(" ")];
      const raw = form.get(field.name);
      return [field.name, typeof raw === "string" ? raw.slice(0, 10_000) : ""];
    }),
  );
}

/** What the form's fields show for a stored listing. */
export function storedValues(fields: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!(name in writeFields) || value === null || value === undefined) continue;
    if (typeof value === "boolean") values[name] = value ? "yes" : "no";
    else if (Array.isArray(value)) values[name] = value.join(" ");
    else if (typeof value === "string" || typeof value === "number") values[name] = String(value);
  }
  return values;
}
