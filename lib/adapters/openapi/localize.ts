import { catalogue, format, type Locale } from "@/lib/base/i18n";

/**
 * The OpenAPI document in another language. The English texts are the route declarations' own
 * (document.ts, webhooks.ts); the `openapi` part of each catalogue holds the texts a reader sees first,
 * keyed by operationId: the summary and description of every operation and webhook, the name shown
 * for every tag (`x-displayName`, which Scalar shows instead of the name a client's code keys by) and
 * its description, the API's title and description. messages/en.json's part is generated from the English document
 * (`npm run i18n:openapi`, scripts/openapi-messages.ts) and a test fails while it is stale; the
 * Romanian one is translated from it. Schemas, parameters and responses stay English.
 */

/** The parts of an OpenAPI document this file reads and rewrites. */
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
}
interface Document {
  info: { title: string; description?: string };
  tags?: { name: string; description?: string; "x-displayName"?: string }[];
  paths?: Record<string, object | undefined>;
  webhooks?: Record<string, object | undefined>;
}

/** The translated texts of a document, as in the catalogues' `openapi` part (plain text, not ICU). */
export interface DocumentTexts {
  title: string;
  info: string;
  /** The name each tag is shown by, keyed by its name (which stays as it is: tools and clients key by it). */
  tagNames: Record<string, string>;
  tags: Record<string, string>;
  operations: Record<string, { summary: string; description: string }>;
}

const methods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** Every operation of the paths and the webhooks, in the document's order. */
function operationsOf(document: Document): Operation[] {
  return [...Object.values(document.paths ?? {}), ...Object.values(document.webhooks ?? {})].flatMap((item) =>
    Object.entries(item ?? {})
      .filter(([method]) => methods.has(method))
      .map(([, operation]) => operation as Operation),
  );
}

/** The texts of a document that the catalogues translate (scripts/openapi-messages.ts writes the English ones). */
export function documentTexts(document: Document): DocumentTexts {
  const operations: DocumentTexts["operations"] = {};
  for (const operation of operationsOf(document)) {
    if (!operation.operationId) throw new Error(`an operation without operationId: ${operation.summary}`);
    operations[operation.operationId] = { summary: operation.summary ?? "", description: operation.description ?? "" };
  }
  return {
    title: document.info.title,
    info: document.info.description ?? "",
    tagNames: Object.fromEntries((document.tags ?? []).map((tag) => [tag.name, tag["x-displayName"] ?? tag.name])),
    tags: Object.fromEntries((document.tags ?? []).map((tag) => [tag.name, tag.description ?? ""])),
    operations,
  };
}

/** The catalogue's texts of the document in a language, formatted (their ICU escapes resolved). */
export function catalogueTexts(locale: Locale): DocumentTexts {
  const part = catalogue(locale).openapi as DocumentTexts;
  const text = (message: string) => format(locale, message);
  return {
    title: text(part.title),
    info: text(part.info),
    tagNames: Object.fromEntries(Object.entries(part.tagNames).map(([name, shown]) => [name, text(shown)])),
    tags: Object.fromEntries(Object.entries(part.tags).map(([name, description]) => [name, text(description)])),
    operations: Object.fromEntries(
      Object.entries(part.operations).map(([id, operation]) => [
        id,
        { summary: text(operation.summary), description: text(operation.description) },
      ]),
    ),
  };
}

/**
 * The document with its texts in `locale`. English is the document itself, unchanged; another
 * language gets a copy with the catalogue's texts, each found by its operationId or tag name (a text
 * missing from the catalogue would be English in it, which tests/api/openapi-locale.test.ts refuses).
 */
export function localizedDocument<D extends Document>(document: D, locale: Locale): D {
  if (locale === "en") return document;
  const texts = catalogueTexts(locale);
  const copy = structuredClone(document);
  copy.info.title = texts.title;
  if (copy.info.description !== undefined) copy.info.description = texts.info;
  for (const tag of copy.tags ?? []) {
    if (texts.tagNames[tag.name] !== undefined) tag["x-displayName"] = texts.tagNames[tag.name];
    if (texts.tags[tag.name] !== undefined) tag.description = texts.tags[tag.name];
  }
  for (const operation of operationsOf(copy)) {
    const translated = operation.operationId ? texts.operations[operation.operationId] : undefined;
    if (!translated) continue;
    if (operation.summary !== undefined) operation.summary = translated.summary;
    if (operation.description !== undefined) operation.description = translated.description;
  }
  return copy;
}

/**
 * An ICU message that formats to `text` as written. The stretch from the first brace to the last
 * (with any apostrophes right after it) is one quoted literal, its apostrophes doubled: `'{code}'`.
 * Elsewhere an apostrophe is doubled only where ICU would read it as a quote (beside another
 * apostrophe, before `<` or `>`, or before the quoted stretch); any other (`app's`, `colleagues'`) reads as written.
 */
export function icuLiteral(text: string): string {
  let out = "";
  for (const part of text.split(/((?:[{}][^{}]*)*[{}]'*)/)) {
    if (part === "") continue;
    if (part.startsWith("{") || part.startsWith("}")) out += `'${part.replaceAll("'", "''")}'`;
    else
      out += part.replace(/'/g, (quote, at: number) =>
        at === part.length - 1 || part[at - 1] === "'" || "'<>".includes(part[at + 1]) ? "''" : quote,
      );
  }
  return out;
}
