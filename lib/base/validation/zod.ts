import type { z } from "zod";
import { ValidationError, type FieldError, type FieldIssue } from "@/lib/base/errors";
import type { Unit } from "@/lib/base/i18n/keys";
import { pointerOf } from "./pointer";

/**
 * Maps zod issues to the API's stable validation codes and JSON Pointers. Used for every input
 * that is not a listing body (query parameters, operator commands, key creation).
 */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[], where?: "query"): FieldError[] {
  return issues.map((issue) => {
    const pointer = pointerOf(issue.path);
    const base = where ? { pointer, in: where } : { pointer };
    return { ...base, ...codeOf(issue) };
  });
}

const typeCodes: Partial<Record<string, "string" | "numeric" | "integer" | "boolean" | "array" | "object">> = {
  string: "string",
  number: "numeric",
  int: "integer",
  boolean: "boolean",
  array: "array",
  object: "object",
};

/** What a bound of this origin counts: text length in characters, list size in items, or a plain number. */
export function unitOfOrigin(origin: string): Unit {
  return origin === "string" ? "characters" : origin === "array" || origin === "set" ? "items" : "number";
}

function codeOf(issue: z.core.$ZodIssue): FieldIssue {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined || issue.input === null) return { code: "required" };
      const code = typeCodes[issue.expected];
      return code ? { code } : { code: "invalid", params: { reason: "invalid" } };
    }
    case "too_small":
      return { code: "min", params: { min: Number(issue.minimum), unit: unitOfOrigin(issue.origin) } };
    case "too_big":
      return { code: "max", params: { max: Number(issue.maximum), unit: unitOfOrigin(issue.origin) } };
    case "invalid_value":
      return { code: "in", params: { values: issue.values.map(String).join(", ") } };
    case "invalid_format":
      return issue.format === "email"
        ? { code: "email" }
        : issue.format === "url"
          ? { code: "url", params: { scheme: "https" } }
          : { code: "regex" };
    case "custom":
      // Our own checks carry their code and its parameters (`refineStorable`: `invalid` with a reason).
      return (issue.params as FieldIssue | undefined) ?? { code: "invalid", params: { reason: "invalid" } };
    default:
      return { code: "invalid", params: { reason: "invalid" } };
  }
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where?: "query"): z.output<S> {
  // Zod 4 leaves `input` out of issues unless asked; codeOf needs it to tell "missing" from "wrong type".
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw new ValidationError(toFieldErrors(result.error.issues, where));
  return result.data;
}
