import { and, asc, eq, inArray } from "drizzle-orm";
import { photoLists, photos } from "@/db/schema";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { inPhotoSlot } from "./internal/limiter";
import { claimPhotoLease, releasePhotoLease, renewPhotoLease } from "./internal/photo-lease";
import { processPhoto, type PhotoOutcome, type PhotoRow } from "./internal/process-photo";
import { traced } from "@/lib/base/tracing";
import { publishPhotoList } from "./internal/publish-list";

export type { PhotoFailure } from "./internal/process-photo";

export type ProcessOutcome = { status: "done"; processed: number; failed: number } | { status: "busy"; until: Date } | { status: "gone" };

/**
 * Processes a listing's waiting photos: one worker per listing at a time (the `photo_lists` lease,
 * on either job engine), photos of the listing in parallel up to the process's photo slots. When
 * nothing waits and the list it finished is still the latest, the worker publishes `images` in the
 * list's order, records `media.failed` for the failures not yet reported (one event per reason),
 * clears `media.processing` and gives the listing up, all in one transaction. A list sent while it
 * worked bumps the revision, so it goes round again instead. A worker that dies leaves its lease to
 * expire; its job runs again and takes up the photos left `processing`. Its times come from the
 * context's clock.
 */
export async function processListingPhotos({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { listingId: string };
}): Promise<ProcessOutcome> {
  const { listingId } = input;
  const claim = await claimPhotoLease(ctx, listingId);
  if (claim !== "held") return claim;
  try {
    return await work(ctx, listingId);
  } catch (error) {
    // A fault (storage or database unreachable) ends this run; the job's retry must find the
    // listing free rather than wait for the lease.
    await releasePhotoLease(ctx, listingId).catch(() => {});
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
      if (await publishPhotoList(ctx, listingId, list.revision)) return { status: "done", processed, failed };
      continue;
    }
    // Every photo of the round ends before a fault is reported, so none is still running when the
    // listing is given up.
    const settled = await Promise.allSettled(waiting.map((photo) => inPhotoSlot(() => tracedPhoto(ctx, photo))));
    const fault = settled.find((result) => result.status === "rejected");
    if (fault) throw fault.reason;
    const outcomes = settled.map((result) => (result as PromiseFulfilledResult<PhotoOutcome>).value);
    processed += outcomes.filter((outcome) => outcome === "done").length;
    failed += outcomes.filter((outcome) => outcome === "failed").length;
    await renewPhotoLease(ctx, listingId);
  }
}

/** A span per photo processed, with what became of it. */
const tracedPhoto = (ctx: ServiceContext<StaffActor>, photo: PhotoRow): Promise<PhotoOutcome> =>
  traced("photo.process", { "photo.id": photo.id, "listing.id": photo.listingId }, async (span) => {
    const outcome = await processPhoto(ctx, photo);
    span.setAttribute("photo.outcome", outcome);
    return outcome;
  });
