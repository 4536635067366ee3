// `npm run lint:openapi`: Redocly's recommended lint (redocly.yaml) of the v1 OpenAPI document in each
// language `GET /api/v1/openapi.json` serves it (English; `?locale=ro`), built from the route
// declarations and the catalogues alone (no database).
// Fails on any problem, warnings included (Redocly's own exit code counts only errors). `.ci/run`
// runs it; `npm test` does not (a Redocly process costs seconds and proves nothing about the code).
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { apiDocument } from "@/app/api/v1/routes";
import { localizedDocument } from "@/lib/adapters/openapi/localize";
import { locales } from "@/lib/base/i18n";

const folder = mkdtempSync(path.join(tmpdir(), "openapi-"));
const cli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
let problems = 0;
for (const locale of locales) {
  const file = path.join(folder, `openapi.${locale}.json`);
  writeFileSync(file, JSON.stringify(localizedDocument(apiDocument(), locale)));
  let output: string;
  try {
    output = execFileSync(process.execPath, [cli, "lint", "--config", "redocly.yaml", "--format", "json", file], { encoding: "utf8" });
  } catch (error) {
    // An error exits non-zero; its report is on stdout all the same.
    output = (error as { stdout?: string }).stdout ?? "";
  }
  const report = JSON.parse(output) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
  for (const problem of report.problems) console.error(`${locale} ${problem.ruleId}: ${problem.message}`);
  console.log(`OpenAPI lint (Redocly recommended), ${locale}: ${report.totals.errors} errors, ${report.totals.warnings} warnings`);
  problems += report.problems.length;
}
process.exit(problems === 0 ? 0 : 1);
