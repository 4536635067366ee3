import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "@/lib/adapters/cli/main";
import { commands } from "@/lib/adapters/cli/registry";
import { cli } from "@/tests/cli/support";

/** The help is text, not the JSON of a command. */
async function help(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const exitCode = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { exitCode, stdout, stderr };
}

describe("npm run cli -- --help", () => {
  it("prints every command of the registry with its summary and exits 0, as -h and help do", async () => {
    for (const word of ["--help", "-h", "help"]) {
      const run = await help(word);
      expect(run).toMatchObject({ exitCode: 0, stderr: "" });
      expect(run.stdout).toMatch(/^Usage: npm run cli -- <command>/);
      const lines = run.stdout.split("\n");
      for (const command of commands) {
        const line = lines.find((candidate) => candidate.startsWith(`  ${command.name} `));
        expect(line?.slice(2 + command.name.length).trim()).toBe(command.summary);
      }
    }
  });

  it("prints one command's usage for <command> --help and help <command>", async () => {
    const keyCreate = commands.find((command) => command.name === "key:create")!;
    for (const argv of [
      ["key:create", "--help"],
      ["key:create", "-h"],
      ["help", "key:create"],
    ]) {
      const run = await help(...argv);
      expect(run).toEqual({ exitCode: 0, stderr: "", stdout: `${keyCreate.usage}\n\n${keyCreate.summary}\n` });
    }
  });

  it("still refuses an unknown command with the list of commands, exit code 2", async () => {
    const run = await cli("account:delete", "--help");
    expect(run).toMatchObject({ exitCode: 2, stdout: "", error: { code: "unknown_command" } });
    expect(run.error!.commands!.map((command) => command.name)).toEqual(commands.map((command) => command.name));
  });
});

describe("the Operator CLI guide's table", () => {
  it("has a row for every command of the registry, and no other", () => {
    const section = readFileSync("docs/cli.md", "utf8");
    const rows = [...section.matchAll(/^\| `([a-z]+:[a-z]+)/gm)].map((match) => match[1]);
    expect(rows.toSorted()).toEqual(commands.map((command) => command.name).toSorted());
  });
});
