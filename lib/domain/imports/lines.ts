import { AppError } from "@/lib/base/errors";
import { maxNestingDepth, nestingDepth } from "@/lib/base/validation/json-depth";
import { maxImportLineBytes, maxImportLines } from "./limits";

/**
 * The lines of an NDJSON text: split on LF (a CR before it is dropped), the final newline ending the
 * last line rather than starting an empty one. Every other line counts, blank ones included (each
 * is refused at its number), so a result's `line` is the line of the file. Refuses a text without a
 * line (`import_empty`) and one of more than `maxImportLines` (`import_too_many_lines`).
 */
export function importLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (let i = 0; i < lines.length; i++) if (lines[i].endsWith("\r")) lines[i] = lines[i].slice(0, -1);
  if (lines.every((line) => line.trim() === "")) throw new AppError("import_empty");
  if (lines.length > maxImportLines) throw new AppError("import_too_many_lines", { limit: maxImportLines });
  return lines;
}

/**
 * One line's body, checked as `PUT /listings/ref/{ref}` checks its body before anything else: its
 * size, JSON, its nesting. Throws the refusal a single call would answer.
 */
export function parseLine(line: string): unknown {
  if (Buffer.byteLength(line) > maxImportLineBytes) throw new AppError("payload_too_large", { limit: maxImportLineBytes });
  if (!line.trim()) throw new AppError("malformed_json");
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new AppError("malformed_json");
  }
  if (nestingDepth(value) > maxNestingDepth) throw new AppError("nesting_too_deep", { limit: maxNestingDepth });
  return value;
}
