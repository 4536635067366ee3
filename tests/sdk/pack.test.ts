import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const sdk = path.join(root, "sdk");
const work = mkdtempSync(path.join(os.tmpdir(), "sdk-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** An integrator's program, type-checked against the installed tarball (no path into the repository). */
const program = `import { ApiError, createClient, verifyWebhook, type ListingDetail, type WebhookEvent } from "@listings-platform/client";

const client = createClient({ baseUrl: "http://localhost:3000/api/v1", apiKey: "1|svc_test_x", language: "en", retries: 3 });

export async function codes(): Promise<string[]> {
  const all: string[] = [];
  for await (const listing of client.listings.list({ status: "active" })) all.push(listing.code ?? "");
  return all;
}
export const etag = async (code: string): Promise<ListingDetail["etag"]> => (await client.listings.get(code)).data.etag;
export const pointers = (error: unknown): string[] => (error instanceof ApiError ? error.errors.map((item) => item.pointer) : []);
export const kind = (payload: string, secret: string): WebhookEvent["type"] => verifyWebhook({ payload, headers: {}, secret }).type;
// @ts-expect-error a status the document does not have
void client.listings.list({ status: "archived" });
`;

/**
 * What `npm publish` would ship, installed as an integrator installs it: `npm pack` builds the package
 * first (its `prepack` runs tsc into sdk/dist); the tarball holds the ESM build with its declarations,
 * not the sources; unpacked into a project's node_modules beside its two dependencies, Node.js loads it
 * by its name and TypeScript types a program with it.
 */
describe("the sdk package", () => {
  it("packs its ESM build with type declarations, which Node.js loads and TypeScript types by the package's name", async () => {
    const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts=false", "--pack-destination", work], { cwd: sdk });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf("["))) as {
      name: string;
      version: string;
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed.files.map((file) => file.path);
    expect(packed).toMatchObject({ name: "@listings-platform/client", version: "1.0.0" });
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "LICENSE",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/generated/openapi.d.ts",
        "dist/cli.js",
      ]),
    );
    expect(files.filter((file) => !file.startsWith("dist/") && !["package.json", "README.md", "LICENSE"].includes(file))).toEqual([]);

    const project = path.join(work, "project");
    const modules = path.join(project, "node_modules");
    mkdirSync(path.join(modules, "@listings-platform/client"), { recursive: true });
    await run("tar", [
      "-xzf",
      path.join(work, packed.filename),
      "-C",
      path.join(modules, "@listings-platform/client"),
      "--strip-components=1",
    ]);
    for (const dependency of ["openapi-fetch", "openapi-typescript-helpers", "standardwebhooks"]) {
      symlinkSync(path.join(root, "node_modules", dependency), path.join(modules, dependency));
    }
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "integrator", private: true, type: "module" }));
    writeFileSync(path.join(project, "program.ts"), program);

    const manifest = JSON.parse(readFileSync(path.join(modules, "@listings-platform/client/package.json"), "utf8"));
    expect(manifest).toMatchObject({ license: "MIT", publishConfig: { access: "public" }, bin: { listings: "./dist/cli.js" } });
    const help = await run(process.execPath, [path.join(modules, "@listings-platform/client", manifest.bin.listings), "--help"], {
      cwd: project,
    });
    expect(help.stderr).toContain("listings listen --forward-to <url>");

    const script = `const sdk = await import("@listings-platform/client");
      console.log(JSON.stringify({ exports: Object.keys(sdk).sort(), wait: sdk.retryAfterMs("2") }));`;
    const loaded = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    expect(JSON.parse(loaded.stdout)).toEqual({
      exports: ["ApiError", "WebhookVerificationError", "createClient", "retryAfterMs", "verifyWebhook"],
      wait: 2000,
    });

    const tsc = path.join(root, "node_modules/typescript/bin/tsc");
    // Libraries' declarations unchecked (standardwebhooks' name Node's Buffer); the @ts-expect-error fails if ours degrade to any.
    const options = [
      "--noEmit",
      "--strict",
      "--skipLibCheck",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--target",
      "es2022",
    ];
    const checked = await run(process.execPath, [tsc, ...options, "--lib", "es2022,dom,dom.iterable", "program.ts"], {
      cwd: project,
    }).catch((error: { stdout: string }) => error);
    expect(checked.stdout).toBe("");
  }, 120_000);
});
