import { accountCommands } from "./accounts";
import type { Command } from "./command";
import { databaseCommands } from "./database";
import { jobCommands } from "./jobs";
import { keyCommands } from "./keys";
import { mailCommands } from "./mail";
import { moderationCommands } from "./moderation";
import { oauthCommands } from "./oauth";
import { rateCommands } from "./rates";
import { CliError } from "./reply";
import { reportCommands } from "./reports";
import { secretCommands } from "./secrets";
import { webhookCommands } from "./webhooks";

/** Every operator command. A command group is one file under lib/adapters/cli exporting a list, spread here. */
export const commands: readonly Command[] = [
  ...accountCommands,
  ...keyCommands,
  ...oauthCommands,
  ...jobCommands,
  ...databaseCommands,
  ...rateCommands,
  ...moderationCommands,
  ...reportCommands,
  ...webhookCommands,
  ...secretCommands,
  ...mailCommands,
];

export function findCommand(name: string | undefined): Command {
  const found = commands.find((command) => command.name === name);
  if (found) return found;
  throw new CliError("unknown_command", name ? `There is no command "${name}".` : "Name a command.", 2, {
    commands: commands.map((command) => ({ name: command.name, usage: command.usage, summary: command.summary })),
  });
}
