import { ValidationError, type FieldError } from "@/lib/base/errors";
import type { Command, RawArgs } from "./command";

export interface ParsedArgv {
  positional: string[];
  flags: RawArgs;
}

/**
 * Splits the words after the command, `[positional...] [--flag value | --flag=value | --switch]`. A
 * flag is a switch when the command says so; other flags always take the next word as their value.
 */
export function parseArgv(rest: readonly string[], switches: ReadonlySet<string> = new Set()): ParsedArgv {
  const positional: string[] = [];
  const flags: RawArgs = {};
  const errors: FieldError[] = [];
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i];
    if (!word.startsWith("--") || word === "--") {
      positional.push(word);
      continue;
    }
    const equals = word.indexOf("=");
    const name = word.slice(2, equals < 0 ? undefined : equals);
    if (name in flags) errors.push({ pointer: `/${name}`, code: "distinct" });
    if (equals >= 0) {
      const value = word.slice(equals + 1);
      flags[name] = switches.has(name) && (value === "true" || value === "false") ? value === "true" : value;
    } else if (switches.has(name)) {
      flags[name] = true;
    } else if (i + 1 < rest.length) {
      flags[name] = rest[++i];
    } else {
      errors.push({ pointer: `/${name}`, code: "invalid", params: { reason: "flag_needs_value", flag: name } });
    }
  }
  if (errors.length) throw new ValidationError(errors);
  return { positional, flags };
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
