import { and, asc, eq } from "drizzle-orm";
import { listings, photos, type PhotoState } from "@/db/schema";
import { isListingCode } from "@/lib/domain/listings/codes";
import { visibleTo } from "@/lib/domain/listings/scope";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";

export interface OwnPhoto {
  /** What `PUT /listings/{code}/photos` names it by: its address or its upload key. */
  url: string | null;
  key: string | null;
  floor: string | null;
  rooms: string[];
  state: PhotoState;
  /** A `media_failure_reason` code when `failed`. */
  failureReason: string | null;
  /** The 400 px WebP once processed, for the owner's list. */
  thumbnail: string | null;
}

/**
 * The photo list of a listing the account manages, in order, each with its processing state and
 * failure: what the owner's page shows and sends back reordered. Another account's listing is not found.
 */
export async function listOwnPhotos({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { code: string } }): Promise<OwnPhoto[]> {
  if (!isListingCode(input.code)) throw notFound();
  const [listing] = await ctx.db
    .select({ id: listings.id })
    .from(listings)
    .where(and(eq(listings.code, input.code), visibleTo(ctx.actor)));
  if (!listing) throw notFound();
  const rows = await ctx.db.select().from(photos).where(eq(photos.listingId, listing.id)).orderBy(asc(photos.position));
  return rows.map((row) => ({
    url: row.sourceUrl,
    key: row.uploadKey,
    floor: row.floor,
    rooms: row.rooms,
    state: row.state,
    failureReason: row.failureReason,
    thumbnail: row.derivatives?.webp_400.url ?? null,
  }));
}
