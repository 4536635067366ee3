import type { z } from "zod";
import type { FieldError, MessageParams } from "@/lib/platform/errors";
import { unitTypeFields, writeFields, type FieldSpec, type NumberField, type WriteFieldName } from "@/lib/domain/vocabulary";
import { pointerOf } from "@/lib/platform/validation/pointer";
import { coordinateBounds } from "./field-schemas";

const typeCodes: Record<string, string> = {
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
): Pick<NumberField, "kind" | "min" | "max" | "exclusiveMin"> | undefined {
  const spec: FieldSpec = writeFields[field];
  if (spec.kind === "parcel") return path.length === 2 ? { kind: "number", ...coordinateBounds[Number(path[1])] } : undefined;
  const nested: FieldSpec | undefined =
    spec.kind === "unit_types" && path.length >= 2 ? unitTypeFields[String(path[1]) as keyof typeof unitTypeFields] : spec;
  return nested && (nested.kind === "integer" || nested.kind === "number") ? nested : undefined;
}

/**
 * One zod issue of one field as the spec's code. Numbers within two inclusive bounds answer `between`
 * (the detail names the whole range); one-sided bounds, lengths and list sizes answer `min` or `max`.
 */
export function toFieldError(field: WriteFieldName, issue: z.core.$ZodIssue): FieldError {
  const pointer = pointerOf([field, ...issue.path]);
  const error = (code: string, params?: MessageParams): FieldError => (params ? { pointer, code, params } : { pointer, code });
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null) return error("required");
      if (issue.expected === "number" && numberAt(field, issue.path)?.kind === "integer") return error("integer");
      return typeCodes[issue.expected] ? error(typeCodes[issue.expected]) : error("invalid", { reason: "invalid" });
    case "too_small":
    case "too_big": {
      const limit = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
      if (issue.origin !== "number" && issue.origin !== "int") {
        return issue.code === "too_small" ? error("min", { min: limit }) : error("max", { max: limit });
      }
      if (issue.code === "too_small" && !issue.inclusive) return error("gt", { other: limit });
      const bounds = numberAt(field, issue.path);
      if (bounds?.min !== undefined && bounds.max !== undefined && !bounds.exclusiveMin) {
        return error("between", { min: bounds.min, max: bounds.max });
      }
      return issue.code === "too_small" ? error("min", { min: limit }) : error("max", { max: limit });
    }
    case "invalid_value":
      return error("enum");
    case "invalid_format":
      if (issue.format === "date") return error("date_format", { format: "YYYY-MM-DD" });
      if (issue.format === "url") return error("url", { scheme: "https" });
      if (field === "delivery_quarter") return error("date_format", { format: "YYYY-Qn" });
      return error("regex");
    case "custom": {
      const { code, ...params } = (issue.params ?? {}) as { code?: string } & MessageParams;
      return Object.keys(params).length ? error(code ?? "invalid", params) : error(code ?? "invalid");
    }
    default:
      return error("invalid", { reason: "invalid" });
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
