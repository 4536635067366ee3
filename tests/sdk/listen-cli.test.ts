import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const cli = path.join(root, "sdk/src/cli.ts");

/** The typed client's command line as an integrator runs it: its exit code and what it wrote to stderr. */
async function listings(args: string[], env: Record<string, string> = {}) {
  const environment = { ...process.env, LISTINGS_API_KEY: "", ...env };
  try {
    const { stderr } = await run(process.execPath, ["--import", "tsx", cli, ...args], { cwd: root, env: environment });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe("the listings command line", () => {
  it("prints its usage and exits 0 when asked for help", async () => {
    const { code, stderr } = await listings(["--help"]);
    expect(code).toBe(0);
    expect(stderr).toContain("Usage: listings listen --forward-to <url>");
  });

  it.each([
    ["no command", []],
    ["another command", ["forward", "--forward-to", "http://127.0.0.1:4000/hook", "--api-key", "1|svc_test_x"]],
    ["listen without --forward-to", ["listen", "--api-key", "1|svc_test_x"]],
    ["listen without a key (neither --api-key nor LISTINGS_API_KEY)", ["listen", "--forward-to", "http://127.0.0.1:4000/hook"]],
  ])("refuses %s with its usage and exit code 2", async (_, args) => {
    const { code, stderr } = await listings(args);
    expect(code).toBe(2);
    expect(stderr).toContain("--forward-to  the local receiver");
  });

  it("refuses an option it does not know with one line and exit code 1, before any request", async () => {
    const { code, stderr } = await listings(["listen", "--forward-to", "http://127.0.0.1:4000/hook", "--frobnicate"], {
      LISTINGS_API_KEY: "1|svc_test_x",
    });
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("--frobnicate");
  });
});
