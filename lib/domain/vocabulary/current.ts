import { createHash } from "node:crypto";
import type { ServiceContext } from "@/lib/base/context";
import { loadRates } from "@/lib/domain/currency";
import { buildSchemaDocument, type SchemaDocument } from "./schema-document";

/** The vocabulary as served now (with today's reference rates) and its strong ETag. */
export async function vocabularyDocument({ ctx }: { ctx: ServiceContext }): Promise<{ document: SchemaDocument; etag: string }> {
  const document = buildSchemaDocument({ rates: await loadRates(ctx.db) });
  const etag = `"${createHash("sha256").update(JSON.stringify(document)).digest("base64url").slice(0, 27)}"`;
  return { document, etag };
}
