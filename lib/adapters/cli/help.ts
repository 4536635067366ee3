import type { Command } from "./command";
import { commands } from "./registry";

const helpWords = new Set(["help", "--help", "-h"]);

/**
 * The text `npm run cli -- --help` (or `-h`, `help`) prints: every command of the registry with its
 * usage and summary. `help <command>` and `<command> --help` print that command alone. Undefined
 * when the words ask for no help. Text for a person, unlike the JSON a command prints.
 */
export function helpFor(argv: readonly string[]): string | undefined {
  const [first, ...rest] = argv;
  if (first === undefined) return undefined;
  if (helpWords.has(first)) {
    const named = commands.find((command) => command.name === rest[0]);
    return named ? commandHelp(named) : usage();
  }
  const command = commands.find((candidate) => candidate.name === first);
  return command && rest.some((word) => word === "--help" || word === "-h") ? commandHelp(command) : undefined;
}

const width = Math.max(...commands.map((command) => command.name.length));

function usage(): string {
  return [
    "Usage: npm run cli -- <command> [POSITIONAL] [--flag value | --flag=value | --switch]",
    "",
    "Prints one JSON object on stdout and exits 0; on failure, a JSON error on stderr and exit code 2",
    "when the input was refused, 1 otherwise. `npm run cli -- <command> --help` shows one command.",
    "",
    "Commands:",
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    "",
  ].join("\n");
}

const commandHelp = (command: Command): string => `${command.usage}\n\n${command.summary}\n`;
