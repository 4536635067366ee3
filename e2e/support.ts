import { execFileSync } from "node:child_process";

/**
 * Runs an operator command against the e2e server's database. The server holds the PGlite folder,
 * so the CLI sends the command through the server's operator channel (never opening the folder).
 */
export function cli<T = Record<string, unknown>>(...args: string[]): T {
  const output = execFileSync("npx", ["tsx", "scripts/cli.ts", ...args], {
    env: { ...process.env, PGLITE_DIR: `.data/e2e-${process.env.E2E_PORT}` },
    encoding: "utf8",
  });
  return JSON.parse(output) as T;
}

export const demoKey = (permissions = "listings:read,listings:write,media:write") =>
  cli<{ key: string }>(
    "key:create",
    "--email",
    "demo@example.com",
    "--name",
    `e2e ${Date.now()}`,
    "--permissions",
    permissions,
    "--days",
    "30",
  ).key;
