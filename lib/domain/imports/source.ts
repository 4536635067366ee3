import { and, eq } from "drizzle-orm";
import { uploads } from "@/db/schema";
import type { ServiceContext } from "@/lib/base/context";
import { AppError, ValidationError } from "@/lib/base/errors";
import { uploadBlobKey } from "@/lib/domain/media/limits";
import { blobStorage } from "@/lib/infra/storage";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** RFC 8259 §8.1 for each line: bytes that are not UTF-8 are refused, not replaced. */
export function decodeImportText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new AppError("invalid_encoding");
  }
}

/**
 * The text of a file sent with `POST /uploads` by the account: a key of another account answers like
 * an unknown one (422 `invalid_value` at `/key`), as in a photo list.
 */
export async function readUploadedImport(ctx: ServiceContext, input: { key: string; accountId: string }): Promise<string> {
  const [row] = await ctx.db
    .select({ storedAt: uploads.storedAt })
    .from(uploads)
    .where(and(eq(uploads.key, input.key), eq(uploads.accountId, input.accountId)));
  if (!row) throw new ValidationError([{ pointer: "/key", code: "invalid_value", params: { reason: "unknown_upload" } }]);
  if (!row.storedAt) throw new ValidationError([{ pointer: "/key", code: "invalid_value", params: { reason: "upload_not_stored" } }]);
  const file = await blobStorage().get(uploadBlobKey(input.key));
  if (!file) throw new ValidationError([{ pointer: "/key", code: "invalid_value", params: { reason: "unknown_upload" } }]);
  return decodeImportText(new Uint8Array(await new Response(file.body).arrayBuffer()));
}
