import { runCli } from "@/lib/adapters/cli/main";
import type { ErrorBody } from "@/lib/adapters/cli/reply";

type PrintedError = ErrorBody & { commands?: { name: string; usage: string; summary: string }[] };

/** Runs `npm run cli -- <argv>` in this process, on the test file's database. */
export async function cli(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const exitCode = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return {
    exitCode,
    stdout,
    stderr,
    result: stdout ? (JSON.parse(stdout) as Record<string, unknown>) : undefined,
    error: stderr ? (JSON.parse(stderr) as { error: PrintedError }).error : undefined,
  };
}

/** A string member of a command's result. */
export const text = (result: Record<string, unknown> | undefined, name: string): string => {
  const value = result?.[name];
  if (typeof value !== "string") throw new Error(`the result has no string "${name}"`);
  return value;
};
