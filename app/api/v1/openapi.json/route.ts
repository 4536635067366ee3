// GET /openapi.json – the OpenAPI 3.1 document of this version, generated from the zod schemas
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { openApiRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { queryLocale } from "@/lib/adapters/http/locale";
import { localizedDocument } from "@/lib/adapters/openapi/localize";
import type { Locale } from "@/lib/base/i18n";
import { apiDocument } from "../routes";

const cached = new Map<Locale, ReturnType<typeof apiDocument>>();

/**
 * English unless `locale` asks for another language: the document is the same for every reader, so
 * neither the key's account nor Accept-Language changes it (the one without `locale` stays the one
 * tools and generated clients have always read). With `locale=ro` the summaries and descriptions of
 * operations, webhooks and tags are Romanian (lib/adapters/openapi/localize.ts); /docs/api asks for
 * the page's language. An invalid `locale` is refused by the pipeline (422) before this runs.
 */
const document = endpoint(openApiRoute, async (req) => {
  const locale = queryLocale(req.url).value ?? "en";
  let found = cached.get(locale);
  if (!found) cached.set(locale, (found = localizedDocument(apiDocument(), locale)));
  return json(found, { headers: { "Content-Language": locale } });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(document);
