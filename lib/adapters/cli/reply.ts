import { PoolerModeError, PoolingSettingsError, ReplicaSettingsError } from "@/db";
import { databaseUnavailable, unreachableMessage } from "@/db/errors";
import { DatabaseInUseError } from "@/db/lock";
import { SchemaBehindError } from "@/db/migrate";
import { config } from "@/lib/base/config";
import { AppError } from "@/lib/base/errors";
import { renderProblem } from "@/lib/base/problem";
import type { JsonObject } from "./command";

export interface ErrorBody {
  code: string;
  detail: string;
  errors?: { pointer: string; code: string; detail: string }[];
  [extra: string]: unknown;
}

/**
 * What a command gives back, wherever it ran: the CLI prints `result` on stdout with exit code 0,
 * or `{ error }` on stderr with 2 for refused input and 1 for any other failure. The operator
 * channel sends this same object over HTTP.
 */
export type Reply = { exit_code: 0; result: JsonObject } | { exit_code: 1 | 2; error: ErrorBody };

/** A refusal of the command line itself (no such command, database busy), not of a service. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
    readonly exitCode: 1 | 2,
    readonly extra: JsonObject = {},
  ) {
    super(detail);
  }
}

export const databaseInUse = (pid: number) =>
  new CliError(
    "database_in_use",
    `The embedded database is in use by process ${pid}, which does not accept operator commands; retry when it has stopped (or once the server has finished starting).`,
    1,
    { pid },
  );

/**
 * Turns anything thrown into a reply. Service refusals read as the API's problems (in English);
 * the operator is trusted with the message of an unexpected error, which the API never shows.
 */
export function failureReply(error: unknown): Reply {
  if (error instanceof CliError) return { exit_code: error.exitCode, error: { code: error.code, detail: error.detail, ...error.extra } };
  if (error instanceof DatabaseInUseError) return failureReply(databaseInUse(error.holder.pid));
  if (error instanceof SchemaBehindError) {
    return {
      exit_code: 1,
      error: { code: "schema_behind", detail: error.message, pending: error.pending.map((migration) => migration.tag) },
    };
  }
  if (error instanceof PoolerModeError || error instanceof PoolingSettingsError)
    return { exit_code: 1, error: { code: "database_pooling", detail: error.message } };
  if (error instanceof ReplicaSettingsError) return { exit_code: 1, error: { code: "database_replicas", detail: error.message } };
  const unreachable = databaseUnavailable(error);
  const url = config().DATABASE_URL;
  if (unreachable && url) return { exit_code: 1, error: { code: "database_unreachable", detail: unreachableMessage(url, unreachable) } };
  if (error instanceof AppError) {
    const problem = renderProblem(error, "en", "cli");
    const body: ErrorBody = { code: problem.code, detail: problem.detail };
    if (problem.errors) body.errors = problem.errors;
    return { exit_code: error.status < 500 ? 2 : 1, error: body };
  }
  return { exit_code: 1, error: { code: "internal_error", detail: error instanceof Error ? error.message : String(error) } };
}
