import { parsePhoneNumberFromString } from "libphonenumber-js";
import type { FieldError } from "@/lib/base/errors";
import { amenities, defaultPricePeriod, successorOf, writeFieldNames, writeFields, type ListingWriteFields } from "@/lib/domain/vocabulary";
import { checkCrossField } from "./cross-field";
import { fieldSchemas } from "./field-schemas";
import { pointerOf } from "@/lib/base/validation/pointer";
import { toFieldErrors } from "./issues";
import { collectFields, dropInapplicable, isPlainObject, keepKind, kindOf, type Candidate, type Kind } from "./prepare";
import { Report } from "./report";
import type { ValidateListingInput, ValidateListingResult } from "./types";

/**
 * The one listing validator: API create, patch, `POST /listings/validate`, `PUT /listings/ref/{ref}`
 * and the portal form. Pure: rates and the current time come in. On success `value` is the
 * normalized document to store: known fields only, those that apply to the type and transaction,
 * retired codes replaced, unknown amenities dropped, no nulls.
 */
export function validateListing(input: ValidateListingInput): ValidateListingResult {
  const report = new Report();
  if (!isPlainObject(input.document)) {
    report.error("", "object");
    return { ok: false, errors: report.errors(), warnings: [] };
  }
  const fields = collectFields(input.document, report);
  if (input.mode === "patch") keepKind(fields, input.previous, report);
  const kind = kindOf(fields);
  dropInapplicable(fields, kind, report);
  const value = parseFields(fields, report);
  replaceRetired(value, kind, report);
  keepKnownAmenities(value, report);
  checkRequirements(value, kind, report);
  checkCrossField({ value, kind, rates: input.rates, now: input.now, report });
  const errors = input.draft ? report.errors().filter(isDraftError) : report.errors();
  if (errors.length) return { ok: false, errors, warnings: report.warnings() };
  return { ok: true, value: normalize(value, kind), warnings: report.warnings() };
}

/** Codes that say a value is missing; a draft may miss anything but its type and transaction. */
const missing = new Set(["required", "required_if", "required_unless", "complex_needs_complete_type"]);
const draftNeeds = new Set(["/type", "/transaction"]);

const isDraftError = (error: FieldError) => !missing.has(error.code) || draftNeeds.has(error.pointer);

function parseFields(fields: Candidate, report: Report): ListingWriteFields {
  const value: Record<string, unknown> = {};
  for (const name of writeFieldNames) {
    const raw = fields[name];
    if (raw === undefined || raw === null) continue;
    const result = fieldSchemas[name].safeParse(raw, { reportInput: true });
    if (result.success) value[name] = result.data;
    else report.add(...toFieldErrors(name, result.error.issues));
  }
  return value as ListingWriteFields;
}

/** A retired code is accepted, replaced by its successor and reported with a `retired_code` warning. */
function replaceRetired(value: ListingWriteFields, kind: Kind, report: Report): void {
  if (value.subtype !== undefined) {
    const successor = kind.type ? successorOf(`subtype.${kind.type}`, value.subtype) : undefined;
    if (successor) {
      report.warn("/subtype", "retired_code");
      value.subtype = successor;
    }
  }
  for (const name of ["heating_types", "features"] as const) {
    const list = value[name];
    if (!list) continue;
    const enumeration = name === "features" ? "amenity" : "heating_type";
    const replaced = list.map((code, index) => {
      const successor = successorOf(enumeration, code);
      if (successor) report.warn(pointerOf([name, index]), "retired_code");
      return successor ?? code;
    });
    value[name] = replaced.filter((code, index) => replaced.indexOf(code) === index);
  }
}

/** Amenities the vocabulary does not know are dropped with `unknown_amenity` at their index. */
function keepKnownAmenities(value: ListingWriteFields, report: Report): void {
  if (!value.features) return;
  const sent = value.features;
  value.features = sent.filter((code, index) => {
    if (amenities.has(code)) return true;
    report.warn(pointerOf(["features", index]), "unknown_amenity");
    return false;
  });
}

function checkRequirements(value: ListingWriteFields, kind: Kind, report: Report): void {
  for (const name of writeFieldNames) {
    const requirement = writeFields[name].required;
    if (!requirement || value[name] !== undefined || report.hasError(name)) continue;
    const pointer = pointerOf([name]);
    switch (requirement.rule) {
      case "required":
        report.error(pointer, "required");
        break;
      case "required_if":
        if (kind.type && requirement.types.includes(kind.type)) report.error(pointer, "required_if");
        break;
      case "required_unless":
        if (kind.type && !requirement.types.includes(kind.type)) report.error(pointer, "required_unless");
        break;
    }
  }
}

/** Stored forms: lowercase language, uppercase country, phone in E.164, the price period made explicit. */
function normalize(value: ListingWriteFields, kind: Kind): ListingWriteFields {
  const normalized = { ...value };
  if (normalized.content_locale) normalized.content_locale = normalized.content_locale.toLowerCase();
  if (normalized.country) normalized.country = normalized.country.toUpperCase();
  if (normalized.contact_phone) {
    normalized.contact_phone = parsePhoneNumberFromString(normalized.contact_phone, "RO")?.number ?? normalized.contact_phone;
  }
  if (normalized.price !== undefined && normalized.price_period === undefined && kind.transaction) {
    normalized.price_period = defaultPricePeriod[kind.transaction];
  }
  return normalized;
}
