import { randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { blobGarbage, photos, type PhotoDerivatives } from "@/db/schema";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { BodyTooLargeError, OutboundError, safeRequest } from "@/lib/infra/net/safe-request";
import { blobStorage } from "@/lib/infra/storage";
import { maxPhotoBytes, uploadBlobKey } from "../limits";
import { renderPhoto, type RenderFailure, type Rendition } from "./render";

/** A photo's failure reason, kept on the photo and sent in `media.failed` (docs/photos.md, Photos). */
export type PhotoFailure = "download_failed" | "upload_missing" | RenderFailure;

export type PhotoRow = typeof photos.$inferSelect;

/** `skipped`: another worker took it, or a newer list deleted it meanwhile. */
export type PhotoOutcome = "done" | "failed" | "skipped";

const downloadTimeoutMs = 30_000;
const maxRedirects = 3;
/** A photo that took a process down this often is not tried again. */
const maxAttempts = 3;

/**
 * Takes one waiting photo, reads its bytes (its URL through the SSRF-safe fetcher, or its upload),
 * renders its derivatives and stores them, then marks it done; or marks it failed with the reason.
 * A storage or database fault is thrown: the photo stays `processing` for the next run.
 */
export async function processPhoto(ctx: ServiceContext<StaffActor>, photo: PhotoRow): Promise<PhotoOutcome> {
  const [taken] = await ctx.db
    .update(photos)
    .set({ state: "processing", attempts: photo.attempts + 1, updatedAt: ctx.clock() })
    .where(and(eq(photos.id, photo.id), inArray(photos.state, ["pending", "processing"])))
    .returning();
  if (!taken) return "skipped";
  if (taken.attempts > maxAttempts) return markFailed(ctx, taken, "unprocessable");

  const source = await readSource(taken);
  if (!source.ok) return markFailed(ctx, taken, source.reason);
  const rendered = await renderPhoto(source.bytes);
  if (!rendered.ok) return markFailed(ctx, taken, rendered.reason);
  const derivatives = await storeRenditions(taken, rendered.renditions);

  const doneAt = ctx.clock();
  const [saved] = await ctx.db
    .update(photos)
    .set({
      state: "done",
      derivatives,
      placeholder: rendered.placeholder,
      perceptualHash: rendered.perceptualHash,
      width: rendered.width,
      height: rendered.height,
      size: source.bytes.byteLength,
      failureReason: null,
      processedAt: doneAt,
      updatedAt: doneAt,
    })
    .where(and(eq(photos.id, taken.id), eq(photos.state, "processing")))
    .returning({ id: photos.id });
  if (!saved) {
    // Deleted by a newer list while it was processed: its files go with it.
    await ctx.db
      .insert(blobGarbage)
      .values(Object.values(derivatives).map((derivative) => ({ key: derivative.key, createdAt: doneAt })))
      .onConflictDoNothing();
    return "skipped";
  }
  return "done";
}

async function storeRenditions(photo: PhotoRow, renditions: Rendition[]): Promise<PhotoDerivatives> {
  const storage = blobStorage();
  // A new folder per processing: a file's URL is never reused for other bytes, so it is cached for good.
  const folder = `photos/${photo.listingId}/${photo.id}/${randomBytes(6).toString("hex")}`;
  const derivatives = {} as PhotoDerivatives;
  for (const rendition of renditions) {
    const key = `${folder}/${rendition.name}.${rendition.extension}`;
    const stored = await storage.put(key, rendition.bytes, rendition.contentType);
    derivatives[rendition.name] = {
      key,
      url: stored.url,
      contentType: rendition.contentType,
      width: rendition.width,
      height: rendition.height,
      size: stored.size,
    };
  }
  return derivatives;
}

type Source = { ok: true; bytes: Buffer } | { ok: false; reason: PhotoFailure };

async function readSource(photo: PhotoRow): Promise<Source> {
  if (photo.sourceUrl !== null) {
    try {
      const { status, body } = await safeRequest({
        method: "GET",
        url: photo.sourceUrl,
        headers: { "user-agent": "Service-Photos/1", accept: "image/jpeg, image/png, image/webp" },
        timeoutMs: downloadTimeoutMs,
        read: "whole",
        maxBytes: maxPhotoBytes,
        maxRedirects,
      });
      return status === 200 ? { ok: true, bytes: body } : { ok: false, reason: "download_failed" };
    } catch (error) {
      if (error instanceof BodyTooLargeError) return { ok: false, reason: "too_large" };
      if (error instanceof OutboundError) return { ok: false, reason: "download_failed" };
      throw error;
    }
  }
  if (photo.uploadKey === null) return { ok: false, reason: "upload_missing" };
  const found = await blobStorage().get(uploadBlobKey(photo.uploadKey));
  if (!found) return { ok: false, reason: "upload_missing" };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of found.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxPhotoBytes) return { ok: false, reason: "too_large" };
    chunks.push(Buffer.from(chunk));
  }
  return { ok: true, bytes: Buffer.concat(chunks, size) };
}

async function markFailed(ctx: ServiceContext<StaffActor>, photo: PhotoRow, reason: PhotoFailure): Promise<"failed" | "skipped"> {
  const failedAt = ctx.clock();
  const [saved] = await ctx.db
    .update(photos)
    .set({ state: "failed", failureReason: reason, failureReportedAt: null, processedAt: failedAt, updatedAt: failedAt })
    .where(and(eq(photos.id, photo.id), eq(photos.state, "processing")))
    .returning({ id: photos.id });
  return saved ? "failed" : "skipped";
}
