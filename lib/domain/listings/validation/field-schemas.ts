import countries from "i18n-iso-countries";
import { isValidPhoneNumber } from "libphonenumber-js";
import { z } from "zod";
import type { FieldIssue } from "@/lib/base/errors";
import {
  allSubtypes,
  enumerations,
  floorLevels,
  retiredCodes,
  unitTypeFields,
  writeFields,
  type EnumerationName,
  type FieldSpec,
  type ListField,
  type NumberField,
  type TextField,
  type WriteFieldName,
} from "@/lib/domain/vocabulary";
import { isMeaningfulText } from "./meaningful-text";
import { isValidParcelRing } from "./parcel";

/** Patterns of `content_locale`, `price_currency`, `external_ref` and `delivery_quarter`. */
export const patterns = {
  language: /^[a-zA-Z]{2}$/,
  currency: /^[A-Z]{3}$/,
  external_ref: /^[A-Za-z0-9._:/-]+$/,
  quarter: /^\d{4}-Q[1-4]$/,
} as const;

/** Parcel corners are `[longitude, latitude]`. */
export const coordinateBounds = [
  { min: -180, max: 180 },
  { min: -90, max: 90 },
] as const;

type Check = (value: string) => FieldIssue | undefined;

/** A custom zod issue whose `params` are one of our codes with its parameters, mapped as they are (issues.ts). */
const ours = (issue: FieldIssue, path?: PropertyKey[]) => ({
  code: "custom" as const,
  message: issue.code,
  params: issue,
  ...(path ? { path } : {}),
});

/** A custom zod check that finds one of our field issues. */
function refineWith<S extends z.ZodType<string>>(schema: S, check: Check): S {
  return schema.superRefine((value, ctx) => {
    const failure = check(value);
    if (failure) ctx.addIssue(ours(failure));
  }) as unknown as S;
}

/** Current codes plus retired ones: a retired code stays accepted and is replaced by its successor. */
function acceptedCodes(name: EnumerationName): string[] {
  const retired = retiredCodes.filter((code) => code.enumeration === name).map((code) => code.code);
  return [...enumerations[name].codes, ...retired];
}

const subtypeCodes = [...allSubtypes, ...retiredCodes.filter((c) => c.enumeration.startsWith("subtype.")).map((c) => c.code)];

const level = refineWith(z.string(), (value) =>
  floorLevels.has(value) ? undefined : { code: "invalid_value", params: { reason: "unknown_level" } },
).meta({ enum: [...floorLevels.codes] });

const formats: Record<NonNullable<TextField["format"]>, (base: z.ZodString, spec: TextField) => z.ZodType<string>> = {
  meaningful_text: (base) =>
    refineWith(base, (value) => (isMeaningfulText(value, value.length >= 30 ? 8 : 4) ? undefined : { code: "meaningful_text" })),
  iso_country: (base) =>
    refineWith(base, (value) => (/^[A-Za-z]{2}$/.test(value) && countries.isValid(value) ? undefined : { code: "iso_country" })).meta({
      pattern: "^[A-Z]{2}$",
    }),
  phone: (base) => refineWith(base, (value) => (isValidPhoneNumber(value, "RO") ? undefined : { code: "phone_number_valid" })),
  floor_level: () => level,
  date: () => z.iso.date(),
  quarter: (base) => base.regex(patterns.quarter),
  https_url: (_base, spec) => z.url({ protocol: /^https$/, hostname: z.regexes.domain }).max(spec.maxLength ?? 2048),
  subtype: (base) =>
    refineWith(base, (value) => (subtypeCodes.includes(value) ? undefined : { code: "enum" })).meta({
      enum: [...allSubtypes],
    }),
  external_ref: (base) => base.regex(patterns.external_ref),
  language: (base) => base.regex(patterns.language),
  currency: (base) => base.regex(patterns.currency),
};

function textSchema(spec: TextField): z.ZodType<string> {
  let base = z.string();
  if (spec.minLength !== undefined) base = base.min(spec.minLength);
  if (spec.maxLength !== undefined) base = base.max(spec.maxLength);
  if (spec.format) return formats[spec.format](base, spec);
  if (spec.enumeration) return z.enum(acceptedCodes(spec.enumeration) as [string, ...string[]]);
  return base;
}

function numberSchema(spec: NumberField): z.ZodType<number> {
  let base = spec.kind === "integer" ? z.int() : z.number();
  if (spec.min !== undefined) base = spec.exclusiveMin ? base.gt(spec.min) : base.min(spec.min);
  if (spec.max !== undefined) base = base.max(spec.max);
  const places = spec.decimals;
  if (places === undefined) return base;
  return base.superRefine((value, ctx) => {
    if (Number(value.toFixed(places)) !== value) {
      ctx.addIssue(ours({ code: "decimal", params: { places } }));
    }
  });
}

/** Reports every repeated item at its own index (`distinct`), the first occurrence staying valid. */
function distinctItems<T>(items: readonly T[], ctx: z.RefinementCtx, key: (item: T) => string = String) {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const identity = key(item);
    if (seen.has(identity)) ctx.addIssue(ours({ code: "distinct" }, [index]));
    seen.add(identity);
  });
}

function listSchema(spec: ListField): z.ZodType<string[]> {
  let item = z.string();
  if (spec.itemMaxLength !== undefined) item = item.max(spec.itemMaxLength);
  // Unknown amenities are dropped with a warning, not refused: the list of amenities grows over time.
  const member =
    spec.enumeration === "amenity"
      ? item
      : refineWith(item, (value) => (acceptedCodes(spec.enumeration).includes(value) ? undefined : { code: "enum" })).meta({
          enum: [...enumerations[spec.enumeration].codes],
        });
  return z
    .array(member)
    .max(spec.maxItems)
    .superRefine((items, ctx) => distinctItems(items, ctx));
}

const coordinate = (bounds: { min: number; max: number }) => z.number().min(bounds.min).max(bounds.max);

const parcelSchema = z
  .array(z.tuple([coordinate(coordinateBounds[0]), coordinate(coordinateBounds[1])]))
  .min(3)
  .max(500)
  .superRefine((points, ctx) => {
    // Too few corners is already `min`; the outline is judged once there are enough.
    if (points.length >= 3 && !isValidParcelRing(points as [number, number][])) {
      ctx.addIssue(ours({ code: "valid_parcel_ring" }));
    }
  });

const unitTypeRow = z
  .object(
    Object.fromEntries(
      Object.entries(unitTypeFields).map(([name, spec]) => [
        name,
        (spec.kind === "level_range" ? z.object({ from: level, to: level }) : innerSchema(spec)).nullable().optional(),
      ]),
    ),
  )
  .superRefine((row, ctx) => {
    if (row.label !== undefined && row.label !== null) return;
    const others = Object.keys(row).filter((name) => name !== "label" && row[name] !== undefined && row[name] !== null);
    const issue: FieldIssue = others.length ? { code: "required_with", params: { other: others.join(", ") } } : { code: "required" };
    ctx.addIssue(ours(issue, ["label"]));
  });

function innerSchema(spec: FieldSpec): z.ZodType {
  switch (spec.kind) {
    case "text":
      return textSchema(spec);
    case "integer":
    case "number":
      return numberSchema(spec);
    case "boolean":
      return z.boolean();
    case "list":
      return listSchema(spec);
    case "parcel":
      return parcelSchema;
    case "unit_types":
      return z.array(unitTypeRow).max(spec.maxItems);
    case "level_range":
      return z.object({ from: level, to: level });
  }
}

/** The schema of one field's value, `null` excluded: null is handled before (empty or `required`). */
export const fieldSchemas = Object.fromEntries(Object.entries(writeFields).map(([name, spec]) => [name, innerSchema(spec)])) as Record<
  WriteFieldName,
  z.ZodType
>;

function describe(spec: FieldSpec): string {
  const where = [
    spec.appliesTo?.types ? `types: ${spec.appliesTo.types.join(", ")}` : undefined,
    spec.appliesTo?.transactions ? `transactions: ${spec.appliesTo.transactions.join(", ")}` : undefined,
  ].filter(Boolean);
  return [
    spec.labels.en,
    spec.unit ? `Unit: ${spec.unit}.` : undefined,
    where.length ? `Applies to ${where.join("; ")}.` : undefined,
    spec.required ? `Rule: ${spec.required.rule}${"types" in spec.required ? ` (${spec.required.types.join(", ")})` : ""}.` : undefined,
  ]
    .filter(Boolean)
    .join(". ")
    .replace(/\.\./g, ".");
}

/**
 * The write body of a listing (POST, PATCH as merge patch, PUT by ref, validate) for the OpenAPI
 * document. Every member is optional here: which ones are required depends on the property type and
 * on create or edit, and `validateListing` decides. Its values are those of `GET /schema`.
 */
export const listingWriteSchema = z
  .object(
    Object.fromEntries(
      Object.entries(writeFields).map(([name, spec]) => {
        const inner = fieldSchemas[name as WriteFieldName];
        return [name, (spec.nullable ? inner.nullable() : inner).optional().meta({ description: describe(spec) })];
      }),
    ),
  )
  .meta({
    id: "ListingWrite",
    description:
      "Writable fields of a listing. Enumerated values, units and the property types each field applies to are in GET /schema. A field that does not apply to the listing's type or transaction is ignored with a warning. No text anywhere in a field may hold a control character (U+0000–U+001F other than tab, line feed and carriage return, or U+007F–U+009F) or a lone UTF-16 surrogate: 422 `invalid` at that text's pointer. Other characters, bidi controls included, are kept as sent.",
  });
