import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import { blobGarbage, listings, photoLists, photos, type PhotoDerivatives } from "@/db/schema";
import { eventTypes, listingEventData, recordEvent } from "@/lib/domain/events";
import { lockAnyListing } from "@/lib/domain/listings/locking";
import { updateListing } from "@/lib/domain/listings/store";
import { withTransaction, type ServiceContext, type StaffActor } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { DownloadError, safeGet } from "@/lib/infra/net/safe-get";
import { OutboundError } from "@/lib/infra/net/safe-request";
import { blobStorage } from "@/lib/infra/storage";
import { inPhotoSlot } from "./internal/limiter";
import { publishedImages } from "./internal/photo-rows";
import { renderPhoto, type RenderFailure } from "./internal/render";
import { maxPhotoBytes, uploadBlobKey } from "./limits";

/** A photo's failure reason, kept on the photo and sent in `media.failed` (README: Photos). */
export type PhotoFailure = "download_failed" | "upload_missing" | RenderFailure;

/** How long a worker holds a listing without showing signs of life; renewed after every photo. */
const leaseMs = 5 * 60_000;
const downloadTimeoutMs = 30_000;
const maxRedirects = 3;
/** A photo that took a process down this often is not tried again. */
const maxAttempts = 3;

type PhotoRow = typeof photos.$inferSelect;

export type ProcessOutcome = { status: "done"; processed: number; failed: number } | { status: "busy"; until: Date } | { status: "gone" };

/**
 * Processes a listing's waiting photos: one worker per listing at a time (the `photo_lists` lease,
 * on either job engine), photos of the listing in parallel up to the process's photo slots. When
 * nothing waits and the list it finished is still the latest, the worker publishes `images` in the
 * list's order, records `media.failed` for the failures not yet reported (one event per reason),
 * clears `media.processing` and gives the listing up, all in one transaction. A list sent while it
 * worked bumps the revision, so it goes round again instead. A worker that dies leaves its lease to
 * expire; its job runs again and takes up the photos left `processing`.
 */
export async function processListingPhotos({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { listingId: string };
}): Promise<ProcessOutcome> {
  const { listingId } = input;
  const [held] = await ctx.db
    .update(photoLists)
    .set({ workerUntil: new Date(Date.now() + leaseMs) })
    .where(and(eq(photoLists.listingId, listingId), or(isNull(photoLists.workerUntil), lte(photoLists.workerUntil, new Date()))))
    .returning({ revision: photoLists.revision });
  if (!held) {
    const [list] = await ctx.db.select({ until: photoLists.workerUntil }).from(photoLists).where(eq(photoLists.listingId, listingId));
    return list?.until ? { status: "busy", until: list.until } : { status: "gone" };
  }
  try {
    return await work(ctx, listingId);
  } catch (error) {
    // A fault (storage or database unreachable) ends this run; the job's retry must find the
    // listing free rather than wait for the lease.
    await ctx.db
      .update(photoLists)
      .set({ workerUntil: null })
      .where(eq(photoLists.listingId, listingId))
      .catch(() => {});
    throw error;
  }
}

async function work(ctx: ServiceContext<StaffActor>, listingId: string): Promise<ProcessOutcome> {
  let processed = 0;
  let failed = 0;
  for (;;) {
    const [list] = await ctx.db.select({ revision: photoLists.revision }).from(photoLists).where(eq(photoLists.listingId, listingId));
    if (!list) return { status: "gone" };
    const waiting = await ctx.db
      .select()
      .from(photos)
      .where(and(eq(photos.listingId, listingId), inArray(photos.state, ["pending", "processing"])))
      .orderBy(asc(photos.position));
    if (waiting.length === 0) {
      const finished = await finish(ctx, listingId, list.revision);
      if (finished) return { status: "done", processed, failed };
      continue;
    }
    // Every photo of the round ends before a fault is reported, so none is still running when the
    // listing is given up.
    const settled = await Promise.allSettled(waiting.map((photo) => inPhotoSlot(() => processPhoto(ctx, photo))));
    const fault = settled.find((result) => result.status === "rejected");
    if (fault) throw fault.reason;
    const outcomes = settled.map((result) => (result as PromiseFulfilledResult<Awaited<ReturnType<typeof processPhoto>>>).value);
    processed += outcomes.filter((outcome) => outcome === "done").length;
    failed += outcomes.filter((outcome) => outcome === "failed").length;
    await ctx.db
      .update(photoLists)
      .set({ workerUntil: new Date(Date.now() + leaseMs) })
      .where(eq(photoLists.listingId, listingId));
  }
}

async function processPhoto(ctx: ServiceContext<StaffActor>, photo: PhotoRow): Promise<"done" | "failed" | "skipped"> {
  const [taken] = await ctx.db
    .update(photos)
    .set({ state: "processing", attempts: photo.attempts + 1, updatedAt: new Date() })
    .where(and(eq(photos.id, photo.id), inArray(photos.state, ["pending", "processing"])))
    .returning();
  if (!taken) return "skipped";
  if (taken.attempts > maxAttempts) return markFailed(ctx, taken, "unprocessable");

  const source = await readSource(taken);
  if (!source.ok) return markFailed(ctx, taken, source.reason);
  const rendered = await renderPhoto(source.bytes);
  if (!rendered.ok) return markFailed(ctx, taken, rendered.reason);

  const storage = blobStorage();
  // A new folder per processing: a file's URL is never reused for other bytes, so it is cached for good.
  const folder = `photos/${taken.listingId}/${taken.id}/${randomBytes(6).toString("hex")}`;
  const derivatives = {} as PhotoDerivatives;
  for (const rendition of rendered.renditions) {
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
  const [saved] = await ctx.db
    .update(photos)
    .set({
      state: "done",
      derivatives,
      placeholder: rendered.placeholder,
      width: rendered.width,
      height: rendered.height,
      size: source.bytes.byteLength,
      failureReason: null,
      processedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(photos.id, taken.id), eq(photos.state, "processing")))
    .returning({ id: photos.id });
  if (!saved) {
    // Deleted by a newer list while it was processed: its files go with it.
    await ctx.db
      .insert(blobGarbage)
      .values(Object.values(derivatives).map((derivative) => ({ key: derivative.key, createdAt: new Date() })))
      .onConflictDoNothing();
    return "skipped";
  }
  return "done";
}

type Source = { ok: true; bytes: Buffer } | { ok: false; reason: PhotoFailure };

async function readSource(photo: PhotoRow): Promise<Source> {
  if (photo.sourceUrl !== null) {
    try {
      const { body } = await safeGet({
        url: photo.sourceUrl,
        timeoutMs: downloadTimeoutMs,
        maxBytes: maxPhotoBytes,
        maxRedirects,
      });
      return { ok: true, bytes: body };
    } catch (error) {
      if (error instanceof DownloadError && error.reason === "too_large") return { ok: false, reason: "too_large" };
      if (error instanceof DownloadError || error instanceof OutboundError) return { ok: false, reason: "download_failed" };
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
  const [saved] = await ctx.db
    .update(photos)
    .set({ state: "failed", failureReason: reason, failureReportedAt: null, processedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(photos.id, photo.id), eq(photos.state, "processing")))
    .returning({ id: photos.id });
  return saved ? "failed" : "skipped";
}

/**
 * Publishes the finished list, when `revision` is still the latest and nothing waits. Answers
 * whether the worker is done (also when the listing is gone); false sends it round again.
 */
async function finish(ctx: ServiceContext<StaffActor>, listingId: string, revision: number): Promise<boolean> {
  const [listing] = await ctx.db
    .select({ code: listings.code, deletedAt: listings.deletedAt })
    .from(listings)
    .where(eq(listings.id, listingId));
  if (!listing || listing.deletedAt) {
    await ctx.db.update(photoLists).set({ workerUntil: null }).where(eq(photoLists.listingId, listingId));
    return true;
  }
  for (let round = 0; ; round++) {
    try {
      return await withTransaction(ctx, async (tx) => {
        const { row } = await lockAnyListing(tx, listing.code);
        const [list] = await tx.db.select().from(photoLists).where(eq(photoLists.listingId, listingId)).for("update");
        if (!list || list.revision !== revision) return false;
        const waiting = await tx.db
          .select({ id: photos.id })
          .from(photos)
          .where(and(eq(photos.listingId, listingId), inArray(photos.state, ["pending", "processing"])))
          .limit(1);
        if (waiting.length > 0) return false;

        const failures = await tx.db
          .select()
          .from(photos)
          .where(and(eq(photos.listingId, listingId), eq(photos.state, "failed"), isNull(photos.failureReportedAt)))
          .orderBy(asc(photos.position));
        const byReason = new Map<string, PhotoRow[]>();
        for (const photo of failures) {
          const reason = photo.failureReason ?? "unprocessable";
          byReason.set(reason, [...(byReason.get(reason) ?? []), photo]);
        }
        for (const [reason, failed] of byReason) {
          const urls = failed.flatMap((photo) => (photo.sourceUrl !== null ? [photo.sourceUrl] : []));
          await recordEvent(tx.db, {
            accountId: row.accountId,
            type: eventTypes.mediaFailed,
            data: listingEventData(row, { count: failed.length, reason, ...(reason === "download_failed" ? { urls } : {}) }),
            now: new Date(),
          });
        }
        if (failures.length > 0) {
          await tx.db
            .update(photos)
            .set({ failureReportedAt: new Date() })
            .where(
              inArray(
                photos.id,
                failures.map((photo) => photo.id),
              ),
            );
        }
        const images = await publishedImages(tx.db, listingId);
        const changed = JSON.stringify(images) !== JSON.stringify(row.images);
        if (changed || row.mediaProcessing) await updateListing({ ...tx, now: new Date() }, row, { images, mediaProcessing: false });
        await tx.db.update(photoLists).set({ workerUntil: null }).where(eq(photoLists.listingId, listingId));
        return true;
      });
    } catch (error) {
      // An API write holds the listing for a moment; the worker waits rather than fail the job.
      if (error instanceof AppError && error.code === "listing_busy" && round < 20) {
        await new Promise((resolve) => setTimeout(resolve, 100 + round * 50));
        continue;
      }
      if (error instanceof AppError && error.code === "not_found") return true;
      throw error;
    }
  }
}
