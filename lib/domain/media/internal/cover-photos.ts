import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { thumbHashToDataURL } from "thumbhash";
import type { Handle } from "@/db";
import { listings, photos, type PhotoDerivative, type PhotoDerivatives } from "@/db/schema";

export interface PublicPhoto {
  /** 1600 px WebP, 400 px WebP and the 1600 px JPEG for browsers without WebP. */
  webp1600: PhotoDerivative;
  webp400: PhotoDerivative;
  jpeg1600: PhotoDerivative;
  /** The ThumbHash placeholder as a small PNG data URL, shown until the photo has loaded. */
  placeholder: string | null;
  /** Its level code and room labels as stored (a room label may be a `photo_room` code or free text). */
  floor: string | null;
  rooms: string[];
}

/** The cover (first published photo) of each listing of `scope` among `codes` that has one, by listing code. */
export async function coverPhotos(db: Handle, scope: SQL, codes: string[]): Promise<Map<string, PublicPhoto>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({
      code: listings.code,
      derivatives: photos.derivatives,
      placeholder: photos.placeholder,
      floor: photos.floor,
      rooms: photos.rooms,
    })
    .from(listings)
    .innerJoin(photos, eq(photos.listingId, listings.id))
    .where(
      and(
        inArray(listings.code, codes),
        scope,
        eq(photos.state, "done"),
        sql`${photos.derivatives}->'webp_1600'->>'url' = ${listings.images}->>0`,
      ),
    );
  return new Map(rows.map((row) => [row.code, publicPhoto(row)]));
}

export function publicPhoto(row: {
  derivatives: PhotoDerivatives | null;
  placeholder: string | null;
  floor: string | null;
  rooms: string[];
}): PublicPhoto {
  const { webp_1600, webp_400, jpeg_1600 } = row.derivatives!;
  return {
    webp1600: webp_1600,
    webp400: webp_400,
    jpeg1600: jpeg_1600,
    placeholder: row.placeholder ? thumbHashToDataURL(Buffer.from(row.placeholder, "base64")) : null,
    floor: row.floor,
    rooms: row.rooms,
  };
}
