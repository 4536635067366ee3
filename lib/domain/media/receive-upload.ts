import { Readable } from "node:stream";
import { and, eq, isNull } from "drizzle-orm";
import { uploads } from "@/db/schema";
import { verifyUpload } from "@/lib/domain/media/upload-signature";
import type { PublicActor, ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { idPattern } from "@/lib/base/ids";
import { blobStorage } from "@/lib/infra/storage";
import { uploadBlobKey } from "./limits";

export interface ReceivedUpload {
  key: string;
  /** The URL's `expires` and `signature` query parameters, as sent. */
  expires: string | null;
  signature: string | null;
  /** The request's own headers. */
  contentType: string | null;
  contentLength: string | null;
  body: ReadableStream<Uint8Array> | null;
}

/** Thrown inside the body stream: storage then writes nothing. */
class BodyRefused extends Error {
  constructor(readonly refusal: AppError) {
    super(refusal.code);
  }
}

const uploadKeyPattern = idPattern("upload");

/**
 * `PUT /uploads/{key}` (the pre-signed URL of `POST /uploads`). The signature is the credential, so
 * an unknown key and a forged signature answer alike; the declared length and type are the signed
 * row's, checked against the request's headers with their own answers. The key is taken before the
 * body is read (a concurrent replay is refused at once) and given back when the body fails, so the
 * client may send the file again within the 15 minutes. The body streams into storage, counted on
 * the way: a byte past the declared length stops the reading and storage writes nothing.
 */
export async function receiveUpload({
  ctx,
  input,
}: {
  ctx: ServiceContext<PublicActor>;
  input: ReceivedUpload;
}): Promise<{ key: string; size: number }> {
  const forged = () => new AppError("upload_signature_invalid");
  if (!uploadKeyPattern.test(input.key) || !input.expires || !/^[1-9][0-9]{0,11}$/.test(input.expires) || !input.signature) throw forged();
  const [row] = await ctx.db.select().from(uploads).where(eq(uploads.key, input.key));
  if (!row) throw forged();
  const terms = { key: row.key, contentLength: row.contentLength, contentType: row.contentType, expires: Number(input.expires) };
  const check = verifyUpload(terms, input.signature, ctx.now.getTime());
  if (!check.ok) throw check.reason === "expired" ? new AppError("upload_expired") : forged();

  const mediaType = (input.contentType ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType !== row.contentType) throw new AppError("unsupported_media_type", { expected: row.contentType });
  if (input.contentLength === null || input.contentLength.trim() !== String(row.contentLength)) {
    throw new AppError("upload_length_mismatch", { expected: row.contentLength });
  }

  const [taken] = await ctx.db
    .update(uploads)
    .set({ usedAt: ctx.now })
    .where(and(eq(uploads.key, row.key), isNull(uploads.usedAt)))
    .returning({ key: uploads.key });
  if (!taken) throw new AppError("upload_already_used");

  const expected = row.contentLength;
  const counted = async function* (body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
    let size = 0;
    if (body) {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        // Leaving the loop cancels the request body: nothing more is read.
        if (size > expected) throw new BodyRefused(new AppError("payload_too_large", { limit: expected }));
        yield chunk;
      }
    }
    if (size < expected) throw new BodyRefused(new AppError("upload_incomplete", { expected }));
  };

  try {
    const stored = await blobStorage().put(uploadBlobKey(row.key), Readable.from(counted(input.body)), row.contentType);
    await ctx.db.update(uploads).set({ storedAt: new Date() }).where(eq(uploads.key, row.key));
    return { key: row.key, size: stored.size };
  } catch (error) {
    await ctx.db.update(uploads).set({ usedAt: null }).where(eq(uploads.key, row.key));
    const refused =
      error instanceof BodyRefused ? error : error instanceof Error && error.cause instanceof BodyRefused ? error.cause : null;
    if (refused) throw refused.refusal;
    // The client went away mid-body: its stream failed, which is the same as a short body.
    if (isAbort(error)) throw new AppError("upload_incomplete", { expected });
    throw error;
  }
}

const isAbort = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === "AbortError" || (error as NodeJS.ErrnoException).code === "ECONNRESET" || error.message === "aborted");
