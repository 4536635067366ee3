import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { format, resolveConfig } from "prettier";
import { apiDocument } from "@/app/api/v1/routes";
import { documentTexts, icuLiteral, type DocumentTexts } from "@/lib/adapters/openapi/localize";
import { format as formatMessage } from "@/lib/base/i18n/format";

/**
 * `npm run i18n:openapi`: writes the `openapi` part of messages/en.json from the English OpenAPI
 * document (the route declarations' summaries and descriptions, by operationId; the tags' names and
 * descriptions; the API's title and description),
 * as ICU messages that read as written. The route declarations stay the one place the English texts
 * are written; this part is their copy for translators, beside which messages/ro.json holds the
 * Romanian. Run it after changing a declaration's summary or description, then translate what
 * changed in messages/ro.json: tests/api/openapi-locale.test.ts fails while either is behind.
 */

const root = path.resolve(import.meta.dirname, "..");
const englishFile = path.join(root, "messages/en.json");

type Messages = DocumentTexts;

/** The English part as ICU messages; each is checked to format back to the document's text. */
export function openApiMessages(texts: DocumentTexts = documentTexts(apiDocument())): Messages {
  const literal = (text: string) => {
    const message = icuLiteral(text);
    if (formatMessage("en", message) !== text) throw new Error(`cannot write as an ICU message: ${text}`);
    return message;
  };
  return {
    title: literal(texts.title),
    info: literal(texts.info),
    tagNames: Object.fromEntries(Object.entries(texts.tagNames).map(([name, shown]) => [name, literal(shown)])),
    tags: Object.fromEntries(Object.entries(texts.tags).map(([name, text]) => [name, literal(text)])),
    operations: Object.fromEntries(
      Object.entries(texts.operations).map(([id, { summary, description }]) => [
        id,
        { summary: literal(summary), description: literal(description) },
      ]),
    ),
  };
}

/** messages/en.json as it must be on disk: its other parts untouched, formatted like every other file. */
export async function renderedEnglishCatalogue(): Promise<string> {
  const catalogue = JSON.parse(readFileSync(englishFile, "utf8")) as Record<string, unknown>;
  const options = await resolveConfig(englishFile);
  return format(JSON.stringify({ ...catalogue, openapi: openApiMessages() }, null, 2), { ...options, filepath: englishFile });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  writeFileSync(englishFile, await renderedEnglishCatalogue());
  console.log(`wrote the openapi part of ${path.relative(root, englishFile)}`);
}
