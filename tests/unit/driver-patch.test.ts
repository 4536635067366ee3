import { execFile } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { driverPatchMark, unpatchedDriverMessage } from "@/db/driver-patch";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const patchFile = path.join(root, "patches/postgres+3.4.9.patch");

describe("postgres.js without patches/postgres+3.4.9.patch", () => {
  let work: string;
  /** postgres.js as npm ships it: the installed copy with the patch taken out again, in a folder of its own. */
  let unpatched: string;
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), "driver-patch-"));
    unpatched = path.join(work, "node_modules/postgres");
    await cp(path.join(root, "node_modules/postgres"), unpatched, { recursive: true });
    await run("git", ["apply", "--reverse", patchFile], { cwd: work });
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it("is accepted as installed, through the ES module and the CommonJS entry alike", () => {
    expect(unpatchedDriverMessage()).toBeUndefined();
    expect((postgres as unknown as { listingsPlatformPatch: string }).listingsPlatformPatch).toBe(driverPatchMark);
    expect(unpatchedDriverMessage(createRequire(path.join(root, "package.json"))("postgres"))).toBeUndefined();
  });

  it("is refused with a message naming the patch and how to install it, through either entry", async () => {
    const esm = (await import(pathToFileURL(path.join(unpatched, "src/index.js")).href)) as { default: unknown };
    const cjs: unknown = createRequire(path.join(unpatched, "package.json"))("./cjs/src/index.js");
    for (const driver of [esm.default, cjs]) {
      expect(typeof driver).toBe("function");
      expect(unpatchedDriverMessage(driver)).toMatch(/^postgres\.js runs without patches\/postgres\+3\.4\.9\.patch, .*--ignore-scripts/);
    }
  });

  it("stops a starting process with that one line and exit code 1", async () => {
    const script = path.join(work, "start.mts");
    await writeFile(
      script,
      [
        `import { exitOnUnpatchedDriver } from ${JSON.stringify(path.join(root, "db/driver-patch.ts"))};`,
        `const unpatched = await import(${JSON.stringify(pathToFileURL(path.join(unpatched, "src/index.js")).href)});`,
        "exitOnUnpatchedDriver((line) => process.stderr.write(`${line}\\n`), unpatched.default);",
        'process.stdout.write("started\\n");',
      ].join("\n"),
    );
    const started = run(process.execPath, ["--import", "tsx", script], { cwd: root });
    await expect(started).rejects.toMatchObject({ code: 1, stdout: "" });
    const { stderr } = (await started.catch((error: unknown) => error)) as { stderr: string };
    expect(stderr.trimEnd().split("\n")).toEqual([unpatchedDriverMessage({})]);
  });
});
