import type { z } from "zod";
import type { FieldError, FieldIssue } from "@/lib/base/errors";
import type { Unit } from "@/lib/base/i18n/keys";
import { unitTypeFields, writeFields, type FieldSpec, type NumberField, type WriteFieldName } from "@/lib/domain/vocabulary";
import { pointerOf } from "@/lib/base/validation/pointer";
import { unitOfOrigin } from "@/lib/base/validation/zod";
import { coordinateBounds } from "./field-schemas";

const typeCodes: Partial<Record<string, "string" | "numeric" | "integer" | "boolean" | "array" | "object">> = {
  string: "string",
  number: "numeric",
  int: "integer",
  boolean: "boolean",
  array: "array",
  tuple: "array",
  object: "object",
};

/** The spec of the number at `path` inside a field (a parcel coordinate, a unit type member, the field). */
function numberAt(
  field: WriteFieldName,
  path: readonly PropertyKey[],
): Pick<NumberField, "kind" | "min" | "max" | "exclusiveMin" | "unit"> | undefined {
  const spec: FieldSpec = writeFields[field];
  if (spec.kind === "parcel")
    return path.length === 2 ? { kind: "number", unit: "degree", ...coordinateBounds[Number(path[1])] } : undefined;
  const nested: FieldSpec | undefined =
    spec.kind === "unit_types" && path.length >= 2 ? unitTypeFields[String(path[1]) as keyof typeof unitTypeFields] : spec;
  return nested && (nested.kind === "integer" || nested.kind === "number") ? nested : undefined;
}

/**
 * One zod issue of one field as the API's code. Numbers within two inclusive bounds answer `between`
 * (the detail names the whole range); one-sided bounds, lengths and list sizes answer `min` or `max`.
 * Every bound says what it counts (`unit`): characters, items, the parcel's points or the field's unit.
 */
function toFieldError(field: WriteFieldName, issue: z.core.$ZodIssue): FieldError {
  return { pointer: pointerOf([field, ...issue.path]), ...toFieldIssue(field, issue) };
}

function toFieldIssue(field: WriteFieldName, issue: z.core.$ZodIssue): FieldIssue {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined || issue.input === null) return { code: "required" };
      if (issue.expected === "number" && numberAt(field, issue.path)?.kind === "integer") return { code: "integer" };
      const code = typeCodes[issue.expected];
      return code ? { code } : { code: "invalid", params: { reason: "invalid" } };
    }
    case "too_small":
    case "too_big": {
      const limit = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
      if (issue.origin !== "number" && issue.origin !== "int") {
        const unit: Unit = field === "parcel" && issue.path.length === 0 ? "points" : unitOfOrigin(issue.origin);
        return issue.code === "too_small" ? { code: "min", params: { min: limit, unit } } : { code: "max", params: { max: limit, unit } };
      }
      if (issue.code === "too_small" && !issue.inclusive) return { code: "gt", params: { other: limit } };
      const bounds = numberAt(field, issue.path);
      const unit = bounds?.unit ?? "number";
      if (bounds?.min !== undefined && bounds.max !== undefined && !bounds.exclusiveMin) {
        return { code: "between", params: { min: bounds.min, max: bounds.max, unit } };
      }
      return issue.code === "too_small" ? { code: "min", params: { min: limit, unit } } : { code: "max", params: { max: limit, unit } };
    }
    case "invalid_value":
      return { code: "enum" };
    case "invalid_format":
      if (issue.format === "date") return { code: "date_format", params: { format: "YYYY-MM-DD" } };
      if (issue.format === "url") return { code: "url", params: { scheme: "https" } };
      if (field === "delivery_quarter") return { code: "date_format", params: { format: "YYYY-Qn" } };
      return { code: "regex" };
    case "custom":
      // Our own checks (field-schemas.ts, text.ts) carry their code and its parameters.
      return (issue.params as FieldIssue | undefined) ?? { code: "invalid", params: { reason: "invalid" } };
    default:
      return { code: "invalid", params: { reason: "invalid" } };
  }
}

/** zod reports integers beyond 2^53 twice (safe range and our bound): one error per pointer and code. */
export function toFieldErrors(field: WriteFieldName, issues: readonly z.core.$ZodIssue[]): FieldError[] {
  const errors = issues.filter((issue) => !isSafeIntegerNote(issue)).map((issue) => toFieldError(field, issue));
  return errors.filter(
    (error, index) => errors.findIndex((other) => other.pointer === error.pointer && other.code === error.code) === index,
  );
}

const isSafeIntegerNote = (issue: z.core.$ZodIssue) => (issue.code === "too_big" || issue.code === "too_small") && issue.origin === "int";
