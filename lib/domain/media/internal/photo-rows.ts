import { and, asc, eq } from "drizzle-orm";
import type { Handle } from "@/db";
import { photos } from "@/db/schema";

type PhotoRow = typeof photos.$inferSelect;

/** The files a processed photo has in storage. */
export const derivativeKeys = (photo: Pick<PhotoRow, "derivatives">): string[] =>
  photo.derivatives ? Object.values(photo.derivatives).map((derivative) => derivative.key) : [];

/** The listing's `images`: the main derivative of each processed photo, in the list's order (the cover first). */
export async function publishedImages(db: Handle, listingId: string): Promise<string[]> {
  const rows = await db
    .select({ derivatives: photos.derivatives })
    .from(photos)
    .where(and(eq(photos.listingId, listingId), eq(photos.state, "done")))
    .orderBy(asc(photos.position));
  return rows.flatMap((row) => (row.derivatives ? [row.derivatives.webp_1600.url] : []));
}
