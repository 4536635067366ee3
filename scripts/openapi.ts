// Writes the OpenAPI document of v1 (the one `GET /api/v1/openapi.json` serves) to a file, for
// `npm run lint:openapi` (Redocly); `npm run sdk:generate` builds the same document in process. Built
// from the route declarations alone: no database is opened.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { apiDocument } from "@/app/api/v1/routes";

const out = process.argv[2];
if (!out) {
  process.stderr.write("usage: tsx scripts/openapi.ts <file.json>\n");
  process.exit(2);
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(apiDocument(), null, 2)}\n`);
