import { and, eq, inArray, sql } from "drizzle-orm";
import { blobGarbage, photoLists, photos, uploads } from "@/db/schema";
import { lockListing } from "@/lib/domain/listings/locking";
import { updateListing } from "@/lib/domain/listings/store";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { ValidationError, type FieldError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { dispatchJobs } from "@/lib/infra/jobs/dispatch";
import { enqueue, type EnqueuedJob } from "@/lib/infra/jobs/enqueue";
import { derivativeKeys, publishedImages } from "./internal/photo-rows";
import { readPhotoList, type PhotoItem } from "./photo-list";
import { mediaJobs } from "./jobs";

/**
 * `PUT /listings/{code}/photos`: the listing's complete photo list, in order. A photo already on
 * the listing (the same URL or upload key) keeps its row and its derivatives, so a reorder costs no
 * image work; a failed one is tried again; new ones wait for processing; photos missing from the
 * list are deleted and their files queued for deletion. Everything happens in one transaction with
 * the listing locked (a write meanwhile gets 409 `listing_busy`), which also bumps the list's
 * revision: the worker publishes `images` only for the latest list, so lists sent in quick
 * succession end in the last one's order. Answers how many photos entered processing.
 */
export async function setListingPhotos({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { code: string; body: unknown };
}): Promise<{ queued: number }> {
  const items = readPhotoList(input.body);
  let job: EnqueuedJob | undefined;
  const result = await withTransaction(ctx, async (tx) => {
    // 404 (and 409) before the keys are looked at: someone else's listing answers like a missing one.
    const listed = await lockListing(tx, input.code);
    const listing = listed.row;
    await checkUploadKeys(tx, items, ctx.actor.accountId);

    const existing = await tx.db.select().from(photos).where(eq(photos.listingId, listing.id));
    const byIdentity = new Map(existing.map((photo) => [identityOf(photo), photo]));
    const kept = new Set<string>();
    let queued = 0;
    for (const [position, item] of items.entries()) {
      const found = byIdentity.get(item.url !== undefined ? `url:${item.url}` : `key:${item.key}`);
      if (found && !kept.has(found.id)) {
        kept.add(found.id);
        const retry = found.state === "failed";
        if (retry) queued++;
        await tx.db
          .update(photos)
          .set({
            position,
            floor: item.floor,
            rooms: item.rooms,
            updatedAt: ctx.now,
            ...(retry ? { state: "pending" as const, failureReason: null, failureReportedAt: null } : {}),
          })
          .where(eq(photos.id, found.id));
        continue;
      }
      queued++;
      await tx.db.insert(photos).values({
        id: newId("photo"),
        listingId: listing.id,
        position,
        sourceUrl: item.url ?? null,
        uploadKey: item.key ?? null,
        floor: item.floor,
        rooms: item.rooms,
        state: "pending",
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
    }

    const removed = existing.filter((photo) => !kept.has(photo.id));
    if (removed.length > 0) {
      const files = removed.flatMap(derivativeKeys);
      if (files.length > 0)
        await tx.db
          .insert(blobGarbage)
          .values(files.map((key) => ({ key, createdAt: ctx.now })))
          .onConflictDoNothing();
      await tx.db.delete(photos).where(
        inArray(
          photos.id,
          removed.map((photo) => photo.id),
        ),
      );
    }

    await tx.db
      .insert(photoLists)
      .values({ listingId: listing.id, revision: 1, updatedAt: ctx.now })
      .onConflictDoUpdate({ target: photoLists.listingId, set: { revision: sql`${photoLists.revision} + 1`, updatedAt: ctx.now } });

    const waiting = await tx.db
      .select({ id: photos.id })
      .from(photos)
      .where(and(eq(photos.listingId, listing.id), inArray(photos.state, ["pending", "processing"])))
      .limit(1);
    if (waiting.length > 0) {
      if (!listing.mediaProcessing) await updateListing(tx, listing, { mediaProcessing: true });
      // One run per list, never deduplicated against a running one: that run may have published
      // already and be about to end. A run that finds the listing held leaves it to its holder.
      job = await enqueue(mediaJobs.processPhotos, { listingId: listing.id }, { tx: tx.db, accountId: listing.accountId });
    } else {
      // Nothing to process (a reorder, a deletion, an empty list): the order is published at once.
      const images = await publishedImages(tx.db, listing.id);
      if (JSON.stringify(images) !== JSON.stringify(listing.images)) await updateListing(tx, listing, { images });
    }
    return { queued };
  });
  if (job?.created) await dispatchJobs([{ id: job.id, name: job.name, accountId: job.accountId, runAt: job.runAt }]);
  return result;
}

const identityOf = (photo: typeof photos.$inferSelect): string =>
  photo.sourceUrl !== null ? `url:${photo.sourceUrl}` : `key:${photo.uploadKey}`;

/**
 * Every upload key must be one of the caller's with its file stored: another account's key answers
 * exactly like one that does not exist (422 `invalid_value` at `/photos/N/key`).
 */
async function checkUploadKeys(tx: ServiceContext, items: PhotoItem[], accountId: string): Promise<void> {
  const keys = items.flatMap((item) => (item.key !== undefined ? [item.key] : []));
  if (keys.length === 0) return;
  const rows = await tx.db
    .select({ key: uploads.key, storedAt: uploads.storedAt })
    .from(uploads)
    .where(and(inArray(uploads.key, keys), eq(uploads.accountId, accountId)));
  const known = new Map(rows.map((row) => [row.key, row]));
  const errors: FieldError[] = [];
  items.forEach((item, index) => {
    if (item.key === undefined) return;
    const row = known.get(item.key);
    if (!row) errors.push({ pointer: `/photos/${index}/key`, code: "invalid_value", params: { reason: "unknown_upload" } });
    else if (!row.storedAt)
      errors.push({ pointer: `/photos/${index}/key`, code: "invalid_value", params: { reason: "upload_not_stored" } });
  });
  if (errors.length > 0) throw new ValidationError(errors);
}
