import { eq } from "drizzle-orm";
import { listings } from "@/db/schema";
import { publicContext, type AccountActor, type ServiceContext, type StaffActor } from "@/lib/base/context";
import { createUpload } from "@/lib/domain/media/create-upload";
import { processListingPhotos } from "@/lib/domain/media/process-photos";
import { receiveUpload } from "@/lib/domain/media/receive-upload";
import { setListingPhotos } from "@/lib/domain/media/set-photos";
import { drawSamplePhotos, listingShape } from "./sample-photos";

/**
 * Gives a sandbox listing its drawn photos the way an integrator does: `POST /uploads` for each
 * file, the bytes sent to the pre-signed URL's service, then `PUT /listings/{code}/photos` with the
 * keys, their room labels and level tags. `now`: the photos are then processed at once, by the job's
 * own code, so the catalog shows them as soon as seeding ends and the job the photo list enqueued
 * finds nothing left to do (`npm run db:seed`, the tests). `by the job`: that job processes them in
 * the background (the server's start on an empty database, which would otherwise wait about 20 s).
 */
export type SeedPhotoProcessing = "now" | "by the job";

export async function seedListingPhotos({
  ctx,
  seller,
  code,
  document,
  processing,
}: {
  ctx: ServiceContext<StaffActor>;
  seller: ServiceContext<AccountActor>;
  code: string;
  document: Record<string, unknown>;
  processing: SeedPhotoProcessing;
}): Promise<number> {
  const drawn = await drawSamplePhotos(listingShape(document));
  const uploader = publicContext(ctx.database, { now: ctx.now, clock: ctx.clock });
  const items = [];
  for (const photo of drawn) {
    const grant = await createUpload({ ctx: seller, input: { content_length: photo.bytes.byteLength } });
    const url = new URL(grant.url);
    await receiveUpload({
      ctx: uploader,
      input: {
        key: grant.key,
        expires: url.searchParams.get("expires"),
        signature: url.searchParams.get("signature"),
        contentType: grant.headers["Content-Type"],
        contentLength: String(photo.bytes.byteLength),
        body: new Blob([new Uint8Array(photo.bytes)]).stream(),
      },
    });
    items.push({ key: grant.key, rooms: photo.rooms, ...(photo.floor ? { floor: photo.floor } : {}) });
  }
  await setListingPhotos({ ctx: seller, input: { code, body: { photos: items } } });
  if (processing === "by the job") return items.length;
  const [listing] = await ctx.db.select({ id: listings.id }).from(listings).where(eq(listings.code, code));
  await processListingPhotos({ ctx, input: { listingId: listing.id } });
  return items.length;
}
