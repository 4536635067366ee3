import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
/** Nothing listens on port 1: the connection is refused at once. */
const unreachableUrl = "postgres://operator:s3cret-pw@127.0.0.1:1/none";

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, args, {
      cwd: root,
      env: { ...process.env, DATABASE_URL: unreachableUrl, LOG_LEVEL: "info", APP_ENV: "sandbox" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("DATABASE_URL unreachable at start", () => {
  it("the server's start-up prints one line naming DATABASE_URL, without the password, and exits non-zero", async () => {
    const { code, stderr, stdout } = await run([path.join(root, "tests/faults/support/prepare-server.ts")]);
    expect(code).not.toBe(0);
    expect(stdout).toBe("");
    const lines = stderr.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: "error",
      message: expect.stringContaining("DATABASE_URL points to postgres://operator@127.0.0.1:1/none"),
    });
    expect(lines[0]).toContain("ECONNREFUSED");
    expect(stderr).not.toContain("s3cret-pw");
  });

  it("the CLI answers its JSON error naming DATABASE_URL, without the password, and exits 1", async () => {
    const { code, stderr, stdout } = await run([path.join(root, "scripts/cli.ts"), "db:migrate"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    const { error } = JSON.parse(stderr) as { error: { code: string; detail: string } };
    expect(error.code).toBe("database_unreachable");
    expect(error.detail).toContain("DATABASE_URL points to postgres://operator@127.0.0.1:1/none");
    expect(error.detail).toContain("ECONNREFUSED");
    expect(stderr).not.toContain("s3cret-pw");
  });
});
