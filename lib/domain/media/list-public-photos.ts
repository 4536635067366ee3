import { and, eq, inArray, sql } from "drizzle-orm";
import { thumbHashToDataURL } from "thumbhash";
import { listings, photos, type PhotoDerivative, type PhotoDerivatives } from "@/db/schema";
import { publicScope } from "@/lib/domain/listings/internal/queries";
import type { ServiceContext } from "@/lib/platform/context";

export interface PublicPhoto {
  /** 1600 px WebP, 400 px WebP and the 1600 px JPEG for browsers without WebP. */
  webp1600: PhotoDerivative;
  webp400: PhotoDerivative;
  jpeg1600: PhotoDerivative;
  /** The ThumbHash placeholder as a small PNG data URL, shown until the photo has loaded. */
  placeholder: string | null;
}

/**
 * The photos of an active listing as its public page shows them: those of its published `images`,
 * in that order (the API's order), each with its renditions and placeholder. None for a listing
 * that is not public.
 */
export async function listPublicPhotos({ ctx, input }: { ctx: ServiceContext; input: { code: string } }): Promise<PublicPhoto[]> {
  const [listing] = await ctx.db
    .select({ id: listings.id, images: listings.images })
    .from(listings)
    .where(and(eq(listings.code, input.code), publicScope));
  if (!listing || listing.images.length === 0) return [];
  const rows = await ctx.db
    .select({ derivatives: photos.derivatives, placeholder: photos.placeholder })
    .from(photos)
    .where(and(eq(photos.listingId, listing.id), eq(photos.state, "done")));
  const byImage = new Map(rows.flatMap((row) => (row.derivatives ? [[row.derivatives.webp_1600.url, row] as const] : [])));
  return listing.images.flatMap((image) => {
    const row = byImage.get(image);
    return row ? [publicPhoto(row)] : [];
  });
}

/** The cover (first published photo) of each of these active listings that has one, by listing code: the catalog's results. */
export async function listCoverPhotos({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { codes: string[] };
}): Promise<Map<string, PublicPhoto>> {
  if (input.codes.length === 0) return new Map();
  const rows = await ctx.db
    .select({ code: listings.code, derivatives: photos.derivatives, placeholder: photos.placeholder })
    .from(listings)
    .innerJoin(photos, eq(photos.listingId, listings.id))
    .where(
      and(
        inArray(listings.code, input.codes),
        publicScope,
        eq(photos.state, "done"),
        sql`${photos.derivatives}->'webp_1600'->>'url' = ${listings.images}->>0`,
      ),
    );
  return new Map(rows.map((row) => [row.code, publicPhoto(row)]));
}

function publicPhoto(row: { derivatives: PhotoDerivatives | null; placeholder: string | null }): PublicPhoto {
  const { webp_1600, webp_400, jpeg_1600 } = row.derivatives!;
  return {
    webp1600: webp_1600,
    webp400: webp_400,
    jpeg1600: jpeg_1600,
    placeholder: row.placeholder ? thumbHashToDataURL(Buffer.from(row.placeholder, "base64")) : null,
  };
}
