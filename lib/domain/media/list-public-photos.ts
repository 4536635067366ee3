import { and, eq, isNull, type SQL } from "drizzle-orm";
import { listings, photos } from "@/db/schema";
import { publicScope } from "@/lib/domain/listings/scope";
import { readMayLag, type ServiceContext, type StaffActor } from "@/lib/base/context";
import { coverPhotos, publicPhoto, type PublicPhoto } from "./internal/cover-photos";

export type { PublicPhoto };

/**
 * The photos of an active listing as its public page shows them: those of its published `images`,
 * in that order (the API's order), each with its renditions and placeholder. None for a listing
 * that is not public. A read that may lag, as the page's listing is.
 */
export async function listPublicPhotos({ ctx, input }: { ctx: ServiceContext; input: { code: string } }): Promise<PublicPhoto[]> {
  return readMayLag(ctx, (reader) => photosOf(reader, and(eq(listings.code, input.code), publicScope)!));
}

/** The same photos of any account's listing that is not deleted, whatever its state: the moderation desk's review. */
export async function listReviewPhotos({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { code: string };
}): Promise<PublicPhoto[]> {
  return photosOf(ctx, and(eq(listings.code, input.code), isNull(listings.deletedAt))!);
}

async function photosOf(ctx: ServiceContext, which: SQL): Promise<PublicPhoto[]> {
  const [listing] = await ctx.db.select({ id: listings.id, images: listings.images }).from(listings).where(which);
  if (!listing || listing.images.length === 0) return [];
  const rows = await ctx.db
    .select({ derivatives: photos.derivatives, placeholder: photos.placeholder, floor: photos.floor, rooms: photos.rooms })
    .from(photos)
    .where(and(eq(photos.listingId, listing.id), eq(photos.state, "done")));
  const byImage = new Map(rows.flatMap((row) => (row.derivatives ? [[row.derivatives.webp_1600.url, row] as const] : [])));
  return listing.images.flatMap((image) => {
    const row = byImage.get(image);
    return row ? [publicPhoto(row)] : [];
  });
}

/** The cover (first published photo) of each of these active listings that has one, by listing code: the catalog's results (a read that may lag). */
export async function listCoverPhotos({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { codes: string[] };
}): Promise<Map<string, PublicPhoto>> {
  return readMayLag(ctx, (reader) => coverPhotos(reader.db, publicScope, input.codes));
}
