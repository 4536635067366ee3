import {
  isWriteField,
  propertyTypes,
  refusedMembers,
  transactionTypes,
  unitTypeFields,
  writeFields,
  type FieldSpec,
  type PropertyType,
  type TransactionType,
  type WriteFieldName,
} from "@/lib/domain/vocabulary";
import { pointerOf } from "@/lib/base/validation/pointer";
import type { Report } from "./report";
import { refuseUnstorableText } from "./text";

export type Candidate = Partial<Record<WriteFieldName, unknown>>;

export interface Kind {
  type?: PropertyType;
  transaction?: TransactionType;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Keeps the writable members, refuses the server-set ones (`invalid`) and ignores the rest with an
 * `unknown_field` warning. Text is trimmed; an empty text means "no value", like `null`. A field
 * holding a text that cannot be stored (a control character, a lone surrogate), however deep, is
 * refused with `invalid` at that text and judged no further.
 */
export function collectFields(document: Record<string, unknown>, report: Report): Candidate {
  const fields: Candidate = {};
  for (const [name, value] of Object.entries(document)) {
    if (isWriteField(name)) {
      if (!refuseUnstorableText(value, name, report)) fields[name] = tidy(writeFields[name], value, name, report);
    } else if (Object.hasOwn(refusedMembers, name)) report.error(pointerOf([name]), "invalid", { reason: refusedMembers[name] });
    else report.warn(pointerOf([name]), "unknown_field");
  }
  return fields;
}

function tidy(spec: FieldSpec, value: unknown, name: string, report: Report): unknown {
  if (typeof value === "string") return value.trim() === "" ? null : value.trim();
  if (spec.kind === "list" && Array.isArray(value)) return value.map((item) => (typeof item === "string" ? item.trim() : item));
  if (spec.kind === "unit_types" && Array.isArray(value)) {
    return value.map((row, index) => (isPlainObject(row) ? tidyRow(row, [name, index], report) : row));
  }
  return value;
}

function tidyRow(row: Record<string, unknown>, path: (string | number)[], report: Report): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [member, value] of Object.entries(row)) {
    if (!Object.hasOwn(unitTypeFields, member)) {
      report.warn(pointerOf([...path, member]), "unknown_field");
      continue;
    }
    kept[member] = typeof value === "string" ? (value.trim() === "" ? null : value.trim()) : value;
  }
  return kept;
}

/**
 * `type` and `transaction` cannot change when editing (`invalid_value`). The stored value then
 * stands in for the rest of the validation, so the other fields are judged against the real listing.
 */
export function keepKind(fields: Candidate, previous: Record<string, unknown> | undefined, report: Report): void {
  for (const name of ["type", "transaction"] as const) {
    const before = previous?.[name];
    const after = fields[name];
    if (before === undefined || after === undefined || after === null || after === before) continue;
    report.error(pointerOf([name]), "invalid_value", { reason: "immutable", field: name });
    fields[name] = before;
  }
}

export function kindOf(fields: Candidate): Kind {
  return {
    type: propertyTypes.has(fields.type) ? fields.type : undefined,
    transaction: transactionTypes.has(fields.transaction) ? fields.transaction : undefined,
  };
}

/**
 * Drops the fields that do not exist for the listing's type or transaction, with a
 * `field_not_applicable` warning when a value was sent. Unknown type: nothing can be judged, all stay.
 */
export function dropInapplicable(fields: Candidate, kind: Kind, report: Report): void {
  for (const name of Object.keys(fields) as WriteFieldName[]) {
    const applies: FieldSpec["appliesTo"] = writeFields[name].appliesTo;
    const wrongType = kind.type && applies?.types && !applies.types.includes(kind.type);
    const wrongTransaction = kind.transaction && applies?.transactions && !applies.transactions.includes(kind.transaction);
    if (!wrongType && !wrongTransaction) continue;
    if (fields[name] !== null) report.warn(pointerOf([name]), "field_not_applicable");
    delete fields[name];
  }
}
