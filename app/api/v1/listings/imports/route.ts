// POST /listings/imports – a bulk import: NDJSON lines, or the key of an uploaded file; 202, applied in the background
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { createListingImportRoute, importKeyBody, listListingImportsRoute } from "./declaration";
import { keysetCollectionBody } from "@/lib/adapters/http/collection";
import { readJsonBody, readLimited } from "@/lib/adapters/http/body";
import { withIdempotency } from "@/lib/adapters/http/idempotency";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { AppError } from "@/lib/base/errors";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { maxImportBodyBytes, ndjsonContentType } from "@/lib/domain/imports/limits";
import { decodeImportText } from "@/lib/domain/imports/source";
import { listImports } from "@/lib/domain/imports/list-imports";
import { renderImportSummary } from "@/lib/domain/imports/render";
import { startImport, type ImportSource } from "@/lib/domain/imports/start-import";

const create = endpoint(createListingImportRoute, async ({ ctx, principal, request, query, logBody }) => {
  const source = await importSource(request, logBody);
  return withIdempotency(
    {
      database: ctx.database,
      keyId: principal.key.id,
      header: request.headers.get("idempotency-key"),
      method: "POST",
      path: "/listings/imports",
      body: { ...source, ...query },
      now: ctx.now,
    },
    async () => {
      const started = await startImport({ ctx, input: { ...source, ...query } });
      return json({ data: started }, { status: 202, headers: { Location: `/api/v1/listings/imports/${started.id}` } });
    },
  );
});

// GET /listings/imports – the account's imports, newest first, a page at a time (feed_id: one feed's)
const list = endpoint(listListingImportsRoute, async ({ ctx, url, query }) => {
  const page = await listImports({ ctx, input: query });
  return json(keysetCollectionBody(url, { ...page, items: page.items.map(renderImportSummary) }, query.per_page));
});

/**
 * The lines in the body (size checked as they are read), or the JSON naming an uploaded file. The API
 * log keeps the JSON as it keeps any body; of NDJSON it keeps how many lines and bytes came, since the
 * import keeps the lines themselves (docs/api.md, Bulk import).
 */
async function importSource(request: Request, logBody: (value: unknown) => void): Promise<ImportSource> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType === "application/json") {
    const body = await readJsonBody(request);
    logBody(body);
    return parseOrThrow(importKeyBody, body);
  }
  if (mediaType !== ndjsonContentType) {
    throw new AppError("unsupported_media_type", { expected: `${ndjsonContentType} or application/json` });
  }
  if (Number(request.headers.get("content-length") ?? "0") > maxImportBodyBytes) {
    throw new AppError("payload_too_large", { limit: maxImportBodyBytes });
  }
  const bytes = await readLimited(request, maxImportBodyBytes);
  // Its size first, so that a body refused as not UTF-8 is logged with it too.
  logBody({ ndjson: { bytes: bytes.byteLength } });
  const text = decodeImportText(bytes);
  // Lines as the import counts them (importLines): a final newline ends the last line.
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  logBody({ ndjson: { bytes: bytes.byteLength, lines } });
  return { text };
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(list, create);
