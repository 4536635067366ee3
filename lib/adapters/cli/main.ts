import { database } from "@/db";
import { readLock } from "@/db/lock";
import { config, type AppConfig } from "@/lib/base/config";
import { argsFor, parseArgv } from "./argv";
import { executeCommand, type CommandRequest } from "./execute";
import { helpFor } from "./help";
import { sendCommand, type ChannelAddress } from "./operator-channel";
import { findCommand } from "./registry";
import { databaseInUse, failureReply, type Reply } from "./reply";

export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Where a command runs: on its own connection, in the server holding the embedded database, or nowhere yet. */
export type Route = { kind: "direct" } | { kind: "channel"; address: ChannelAddress } | { kind: "busy"; pid: number };

/**
 * PostgreSQL takes any number of connections, so with DATABASE_URL the CLI connects itself. The
 * embedded folder is opened by one process only: when a live process holds it, the command goes to
 * that process's operator channel, and without a channel the CLI refuses rather than lose data.
 */
export function chooseRoute(c: AppConfig = config()): Route {
  if (c.DATABASE_URL || c.PGLITE_DIR.startsWith("memory://")) return { kind: "direct" };
  const holder = readLock(c.dataDir);
  if (!holder) return { kind: "direct" };
  if (holder.operatorPort && holder.operatorToken) {
    return { kind: "channel", address: { port: holder.operatorPort, token: holder.operatorToken } };
  }
  return { kind: "busy", pid: holder.pid };
}

/** `npm run cli -- <command> ...`: prints one JSON object (or the help asked for) and returns the exit code. */
export async function runCli(argv: readonly string[], output: CliOutput): Promise<number> {
  const help = helpFor(argv);
  if (help !== undefined) {
    output.stdout(help);
    return 0;
  }
  const reply = await replyFor(argv);
  if (reply.exit_code === 0) output.stdout(`${JSON.stringify(reply.result, null, 2)}\n`);
  else output.stderr(`${JSON.stringify({ error: reply.error }, null, 2)}\n`);
  return reply.exit_code;
}

/** The command line's words as the request a command runs from; throws the CLI's errors for unknown commands and bad flags. */
export function commandRequest(argv: readonly string[]): CommandRequest {
  const command = findCommand(argv[0]);
  return { command: command.name, args: argsFor(command, parseArgv(argv.slice(1), command.switches)) };
}

async function replyFor(argv: readonly string[]): Promise<Reply> {
  try {
    const request = commandRequest(argv);
    const route = chooseRoute();
    if (route.kind === "channel") return await sendCommand(route.address, request);
    if (route.kind === "busy") throw databaseInUse(route.pid);
    return await executeCommand(await database(), request);
  } catch (error) {
    return failureReply(error);
  }
}
