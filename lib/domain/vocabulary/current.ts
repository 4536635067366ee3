import { createHash } from "node:crypto";
import { readMayLag, type ServiceContext } from "@/lib/base/context";
import { loadRates } from "@/lib/domain/currency";
import { buildSchemaDocument, type SchemaDocument } from "./schema-document";

/**
 * The vocabulary as served now (with today's reference rates) and its strong ETag. The rates may be
 * read on a replica: a lagging one serves yesterday's rates (and their ETag) for a moment longer.
 */
export async function vocabularyDocument({ ctx }: { ctx: ServiceContext }): Promise<{ document: SchemaDocument; etag: string }> {
  const document = buildSchemaDocument({ rates: await readMayLag(ctx, (reader) => loadRates(reader.db)) });
  const etag = `"${createHash("sha256").update(JSON.stringify(document)).digest("base64url").slice(0, 27)}"`;
  return { document, etag };
}
