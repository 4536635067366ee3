import type { Database } from "@/db";
import { operatorContext } from "@/lib/base/context";
import type { RawArgs } from "./command";
import { findCommand } from "./registry";
import { failureReply, type Reply } from "./reply";

export interface CommandRequest {
  command: string;
  args: RawArgs;
}

/** Runs one command on `database` as the operator; never throws, every failure is a reply. */
export async function executeCommand(database: Database, request: CommandRequest): Promise<Reply> {
  try {
    const command = findCommand(request.command);
    const result = await command.execute(operatorContext(database, { locale: "en" }), request.args);
    return { exit_code: 0, result };
  } catch (error) {
    return failureReply(error);
  }
}
