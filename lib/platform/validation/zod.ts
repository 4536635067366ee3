import type { z } from "zod";
import { ValidationError, type FieldError } from "@/lib/platform/errors";
import { pointerOf } from "./pointer";

/**
 * Maps zod issues to the spec's stable validation codes and JSON Pointers. Used for every input
 * that is not a listing body (query parameters, operator commands, key creation).
 */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[], where?: "query"): FieldError[] {
  return issues.map((issue) => {
    const pointer = pointerOf(issue.path);
    const base = where ? { pointer, in: where } : { pointer };
    return { ...base, ...codeOf(issue) };
  });
}

function codeOf(issue: z.core.$ZodIssue): Pick<FieldError, "code" | "params"> {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null) return { code: "required" };
      return { code: issue.expected === "number" ? "numeric" : issue.expected === "int" ? "integer" : String(issue.expected) };
    case "too_small":
      return { code: "min", params: { min: Number(issue.minimum) } };
    case "too_big":
      return { code: "max", params: { max: Number(issue.maximum) } };
    case "invalid_value":
      return { code: "in", params: { values: issue.values.map(String).join(", ") } };
    case "invalid_format":
      return issue.format === "email"
        ? { code: "email" }
        : issue.format === "url"
          ? { code: "url", params: { scheme: "https" } }
          : { code: "regex" };
    default:
      return { code: "invalid", params: { reason: issue.message } };
  }
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where?: "query"): z.output<S> {
  // Zod 4 leaves `input` out of issues unless asked; codeOf needs it to tell "missing" from "wrong type".
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw new ValidationError(toFieldErrors(result.error.issues, where));
  return result.data;
}
