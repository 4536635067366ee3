import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// The lint rule that keeps the adapters apart (eslint.config.mjs, `adapterZones`), run on files it
// has never seen: each names the project's real modules, so the rule resolves them as it does in
// `npm run lint`.
const root = path.join(import.meta.dirname, "../..");
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The restricted-path messages ESLint gives `code` as the file `file`. */
async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((message) => message.ruleId === "import/no-restricted-paths").map((message) => message.message);
}

const importing = (specifier: string, name: string) => `import { ${name} } from "${specifier}";\nexport const used = ${name};\n`;

describe("adapters never import each other", () => {
  it.each([
    ["the CLI", "lib/adapters/cli/new-command.ts", "@/lib/adapters/http/body", "readLimited", "The CLI adapter"],
    ["the worker", "lib/adapters/worker/new-job.ts", "@/lib/adapters/portal/csrf", "formToken", "The worker adapter"],
    ["a portal action", "app/login/new-actions.ts", "@/lib/adapters/http/body", "readLimited", "The portal adapter"],
    ["a portal action", "app/signup/new-actions.ts", "@/app/api/v1/uploads/declaration", "createUploadRoute", "The portal adapter"],
    [
      "the portal's server code",
      "lib/adapters/portal/new-helper.ts",
      "@/lib/adapters/worker/runner",
      "startJobRunner",
      "The portal adapter",
    ],
    ["an API route", "app/api/v1/new/route.ts", "@/lib/adapters/portal/session", "signedInAccount", "The HTTP API adapter"],
    ["the HTTP wrapper", "lib/adapters/http/new-step.ts", "@/lib/adapters/cli/reply", "CliError", "The HTTP API adapter"],
  ])("refuses %s (%s) importing %s", async (_, file, specifier, name, adapter) => {
    expect(await refusals(file, importing(specifier, name))).toEqual([expect.stringContaining(`${adapter} imports no other adapter`)]);
  });

  it("refuses a component importing app/", async () => {
    expect(await refusals("components/new-widget.tsx", importing("@/app/locale-action", "chooseLocale"))).toEqual([
      expect.stringContaining("Components are rendered by app/'s pages and layouts"),
    ]);
  });

  it("lets an adapter use its own files and the layers beneath, and a route handler outside app/api use the HTTP API's", async () => {
    expect(await refusals("lib/adapters/portal/new-helper.ts", importing("@/lib/adapters/portal/csrf", "formToken"))).toEqual([]);
    expect(await refusals("app/login/new-actions.ts", importing("@/lib/base/client-ip", "clientIp"))).toEqual([]);
    expect(await refusals("app/sandbox/new/route.ts", importing("@/lib/adapters/http/body", "readLimited"))).toEqual([]);
    expect(await refusals("lib/adapters/cli/new-command.ts", importing("@/lib/domain/media/create-upload", "createUpload"))).toEqual([]);
  });
});

describe("lib/base", () => {
  it("opens no database: it may name db's types, not call db's `database()`", async () => {
    const [opens] = await eslint.lintText(importing("@/db", "database"), { filePath: path.join(root, "lib/base/new-helper.ts") });
    expect(opens.messages.map((message) => message.ruleId)).toEqual(["@typescript-eslint/no-restricted-imports"]);
    const [names] = await eslint.lintText('import type { Database } from "@/db";\nexport type Used = Database;\n', {
      filePath: path.join(root, "lib/base/new-helper.ts"),
    });
    expect(names.messages).toEqual([]);
  });
});
