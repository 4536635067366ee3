import { and, asc, eq, inArray, isNotNull, lt, notExists, sql } from "drizzle-orm";
import { blobGarbage, listings, photos, uploads } from "@/db/schema";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { blobStorage } from "@/lib/infra/storage";
import { derivativeKeys } from "./internal/photo-rows";
import { uploadBlobKey } from "./limits";

/** Unused upload keys live about a day, as `POST /uploads` documents. */
export const unusedUploadHours = 24;
const batch = 200;

export interface CleanUpSummary {
  uploads: number;
  photosOfDeletedListings: number;
  files: number;
}

/**
 * Removes what nothing refers to any more: upload keys older than a day that no photo uses (their
 * files with them), the photos of deleted listings (their files queued), and the queued files
 * themselves (`blob_garbage`: derivatives of photos dropped from a list or processed again). A file
 * is deleted from storage before its row, so a failure leaves the row to be tried next time.
 */
export async function cleanUpPhotoFiles({ ctx }: { ctx: ServiceContext<StaffActor> }): Promise<CleanUpSummary> {
  const storage = blobStorage();
  const summary: CleanUpSummary = { uploads: 0, photosOfDeletedListings: 0, files: 0 };

  const before = new Date(ctx.now.getTime() - unusedUploadHours * 3600_000);
  for (;;) {
    const unused = await ctx.db
      .select({ key: uploads.key })
      .from(uploads)
      .where(
        and(
          lt(uploads.createdAt, before),
          notExists(
            ctx.db
              .select({ one: sql`1` })
              .from(photos)
              .where(eq(photos.uploadKey, uploads.key)),
          ),
        ),
      )
      .orderBy(asc(uploads.createdAt))
      .limit(batch);
    if (unused.length === 0) break;
    for (const { key } of unused) await storage.delete(uploadBlobKey(key));
    await ctx.db.delete(uploads).where(
      inArray(
        uploads.key,
        unused.map((row) => row.key),
      ),
    );
    summary.uploads += unused.length;
    if (unused.length < batch) break;
  }

  for (;;) {
    const orphaned = await ctx.db
      .select({ id: photos.id, derivatives: photos.derivatives })
      .from(photos)
      .innerJoin(listings, eq(listings.id, photos.listingId))
      .where(isNotNull(listings.deletedAt))
      .limit(batch);
    if (orphaned.length === 0) break;
    await ctx.database.connection.transaction(async (tx) => {
      const files = orphaned.flatMap(derivativeKeys);
      if (files.length > 0)
        await tx
          .insert(blobGarbage)
          .values(files.map((key) => ({ key, createdAt: ctx.now })))
          .onConflictDoNothing();
      await tx.delete(photos).where(
        inArray(
          photos.id,
          orphaned.map((photo) => photo.id),
        ),
      );
    });
    summary.photosOfDeletedListings += orphaned.length;
    if (orphaned.length < batch) break;
  }

  for (;;) {
    const queued = await ctx.db.select({ key: blobGarbage.key }).from(blobGarbage).orderBy(asc(blobGarbage.createdAt)).limit(batch);
    if (queued.length === 0) break;
    for (const { key } of queued) await storage.delete(key);
    await ctx.db.delete(blobGarbage).where(
      inArray(
        blobGarbage.key,
        queued.map((row) => row.key),
      ),
    );
    summary.files += queued.length;
    if (queued.length < batch) break;
  }
  return summary;
}
