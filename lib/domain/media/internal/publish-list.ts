import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { listings, photoLists, photos } from "@/db/schema";
import type { ServiceContext, StaffActor, TransactionContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { eventTypes, listingEventData, recordEvent } from "@/lib/domain/events";
import { lockAnyListing, retryWhileBusy, type BusyRetry } from "@/lib/domain/listings/locking";
import { updateListing } from "@/lib/domain/listings/store";
import type { ListingRow } from "@/lib/domain/listings/read-shape";
import { releasePhotoLease } from "./photo-lease";
import { publishedImages } from "./photo-rows";
import type { PhotoRow } from "./process-photo";

/** An API write holds the listing for a moment: the worker waits for it (about 11.5 s in all) rather than fail the job. */
const whileBusy: BusyRetry = { rounds: 20, backoffMs: (round) => 100 + round * 50 };

/**
 * Publishes the finished list when `revision` is still the latest and nothing waits: `images` in
 * the list's order, `media.failed` for the failures not yet reported (one event per reason),
 * `media.processing` cleared and the listing given up, all in one transaction. Answers whether the
 * worker is done (also when the listing is gone); false sends it round again.
 */
export async function publishPhotoList(ctx: ServiceContext<StaffActor>, listingId: string, revision: number): Promise<boolean> {
  const [listing] = await ctx.db
    .select({ code: listings.code, deletedAt: listings.deletedAt })
    .from(listings)
    .where(eq(listings.id, listingId));
  if (!listing || listing.deletedAt) {
    await releasePhotoLease(ctx, listingId);
    return true;
  }
  try {
    return await retryWhileBusy(
      ctx,
      async (tx) => {
        const { row } = await lockAnyListing(tx, listing.code);
        const [list] = await tx.db.select().from(photoLists).where(eq(photoLists.listingId, listingId)).for("update");
        if (!list || list.revision !== revision) return false;
        const waiting = await tx.db
          .select({ id: photos.id })
          .from(photos)
          .where(and(eq(photos.listingId, listingId), inArray(photos.state, ["pending", "processing"])))
          .limit(1);
        if (waiting.length > 0) return false;

        const at = tx.clock();
        await reportFailures(tx, row, at);
        const images = await publishedImages(tx.db, listingId);
        const changed = JSON.stringify(images) !== JSON.stringify(row.images);
        if (changed || row.mediaProcessing) await updateListing({ ...tx, now: at }, row, { images, mediaProcessing: false });
        await releasePhotoLease(tx, listingId);
        return true;
      },
      whileBusy,
    );
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return true;
    throw error;
  }
}

/** `media.failed` once per reason for the photos failed since the last report, and marks them reported. */
async function reportFailures(tx: TransactionContext<StaffActor>, row: ListingRow, at: Date): Promise<void> {
  const failures = await tx.db
    .select()
    .from(photos)
    .where(and(eq(photos.listingId, row.id), eq(photos.state, "failed"), isNull(photos.failureReportedAt)))
    .orderBy(asc(photos.position));
  if (failures.length === 0) return;
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
      now: at,
    });
  }
  await tx.db
    .update(photos)
    .set({ failureReportedAt: at })
    .where(
      inArray(
        photos.id,
        failures.map((photo) => photo.id),
      ),
    );
}
