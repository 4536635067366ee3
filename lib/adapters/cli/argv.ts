import { parseArgs } from "node:util";
import { ValidationError, type FieldError } from "@/lib/base/errors";
import type { Command, RawArgs } from "./command";

export interface ParsedArgv {
  positional: string[];
  flags: RawArgs;
}

const flagName = /^[a-z][a-z0-9-]*$/;

/**
 * Splits the words after the command, `[positional...] [--flag value | --flag=value | --switch]`, with
 * Node's `parseArgs`. A flag is a switch when the command says so; any other flag, known to the command
 * or not (`execute` names the unknown ones), takes the next word as its value. After `--`, every word
 * is positional.
 */
export function parseArgv(rest: readonly string[], switches: ReadonlySet<string> = new Set()): ParsedArgv {
  const names = rest.filter((word) => word.startsWith("--") && word.length > 2).map((word) => word.slice(2).split("=")[0]);
  // No command has a flag of other characters; `--__proto__` would reach the values' prototype.
  const strange = names.filter((name) => !flagName.test(name));
  if (strange.length) throw new ValidationError(strange.map((name) => ({ pointer: `/${name}`, code: "unknown_parameter" })));
  const options = Object.fromEntries(
    names.map((name) => [name, { type: switches.has(name) ? ("boolean" as const) : ("string" as const), multiple: true }]),
  );
  const { values, positionals } = parseArgs({ args: [...rest], options, strict: false, allowPositionals: true });
  const errors: FieldError[] = [];
  const flags: RawArgs = Object.fromEntries(
    Object.entries(values).map(([name, given]) => {
      const [value, ...again] = given as (string | boolean)[];
      if (again.length) errors.push({ pointer: `/${name}`, code: "distinct" });
      // A value flag that ends the line has none: parseArgs reads it as a switch.
      if (value === true && !switches.has(name)) {
        errors.push({ pointer: `/${name}`, code: "invalid", params: { reason: "flag_needs_value", flag: name } });
      }
      return [name, switches.has(name) && (value === "true" || value === "false") ? value === "true" : value];
    }),
  );
  if (errors.length) throw new ValidationError(errors);
  return { positional: positionals, flags };
}

/** The command's arguments by name: positional words take the command's positional names. */
export function argsFor(command: Command, parsed: ParsedArgv): RawArgs {
  const extra = parsed.positional.slice(command.positional.length);
  if (extra.length) {
    throw new ValidationError(extra.map((word) => ({ pointer: "", code: "invalid", params: { reason: "unexpected_argument", word } })));
  }
  const args: RawArgs = { ...parsed.flags };
  command.positional.forEach((name, index) => {
    if (index < parsed.positional.length) args[name] = parsed.positional[index];
  });
  return args;
}
