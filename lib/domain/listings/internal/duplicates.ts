import { and, asc, between, eq, isNull, ne, or, sql, type SQLWrapper } from "drizzle-orm";
import type { Handle } from "@/db";
import { listings, photos } from "@/db/schema";
import { buildings } from "@/lib/domain/vocabulary/fields/core";
import type { PropertyType } from "@/lib/domain/vocabulary/property-types";
import type { ListingWarning } from "../validation/types";
import type { ListingRow } from "../read-shape";
import { addressKey } from "./address-key";

/** Coordinates this close (metres) are one place, whatever the addresses say. */
export const samePlaceMetres = 25;
/** Areas this close, as a share of the larger one, are one size. */
const sameAreaShare = 0.03;
/** Cover hashes differing in at most this many of their 64 bits show one picture. */
const samePictureBits = 10;
/** A write names at most this many likely duplicates. */
export const maxNamedDuplicates = 5;

/** What the check compares a listing by: what it is, and its stored (or about to be stored) fields. */
export interface DuplicateSubject {
  /** The listing itself when it exists (an update): never its own duplicate, and its cover photo counts. */
  id?: string;
  accountId: string;
  type: string;
  transaction: string;
  fields: Record<string, unknown>;
  /** Its cover photo's URL (`images[0]`), whose perceptual hash is compared. */
  coverUrl?: string;
}

/** Whose listings are looked at: the subject's own account's (every status but `sold`), or every other account's submitted ones. */
export type DuplicateScope = "same account" | "other accounts";

export interface LikelyDuplicate {
  id: string;
  code: string;
  accountId: string;
}

/**
 * The listings that very likely describe the subject's place, oldest first: the same type and
 * transaction; the same address key (addressKey) or coordinates within `samePlaceMetres`; usable area
 * (land area for land and developments) within `sameAreaShare` of each other; the same rooms (both
 * without counts alike); and, when both covers have a perceptual hash, hashes within
 * `samePictureBits`. Deleted and sold listings are never duplicates (a flat sold, or let, comes back
 * as a new listing); nor are another account's drafts, its owner's alone.
 *
 * One statement served by `listings_duplicate_address_idx` and `listings_duplicate_position_idx`
 * (a bitmap OR of the two): it reads the few rows at that address or in a 50 m box, and the exact
 * distance and the hashes are then compared here.
 */
export async function findLikelyDuplicates(db: Handle, subject: DuplicateSubject, scope: DuplicateScope): Promise<LikelyDuplicate[]> {
  const { fields } = subject;
  const area = areaOf(subject.type, fields);
  const key = addressKey(fields);
  const at = position(fields);
  if (area === null || (key === null && at === null)) return [];

  // Spelled out with its own alias: drizzle writes a single table's columns unqualified, which inside
  // a subquery on photos would name the photo's columns, not the listing's.
  const coverHash = (listingId: SQLWrapper | string, url: SQLWrapper | string) =>
    sql<
      string | null
    >`(select "cover"."perceptual_hash"::text from ${photos} "cover" where "cover"."listing_id" = ${listingId} and "cover"."state" = 'done' and "cover"."derivatives"->'webp_1600'->>'url' = ${url} limit 1)`;
  const box = at && boxAround(at);
  const rows = await db
    .select({
      id: listings.id,
      code: listings.code,
      accountId: listings.accountId,
      addressKey: listings.addressKey,
      latitude: listings.latitude,
      longitude: listings.longitude,
      hash: coverHash(sql.raw(`"listings"."id"`), sql.raw(`"listings"."images"->>0`)),
      subjectHash: subject.id && subject.coverUrl ? coverHash(subject.id, subject.coverUrl) : sql<null>`null`,
    })
    .from(listings)
    .where(
      and(
        eq(listings.type, subject.type),
        eq(listings.transaction, subject.transaction),
        isNull(listings.deletedAt),
        ne(listings.status, "sold"),
        scope === "same account"
          ? eq(listings.accountId, subject.accountId)
          : and(ne(listings.accountId, subject.accountId), ne(listings.status, "draft")),
        subject.id === undefined ? undefined : ne(listings.id, subject.id),
        or(
          key === null ? undefined : eq(listings.addressKey, key),
          box ? and(between(listings.latitude, box.south, box.north), between(listings.longitude, box.west, box.east)) : undefined,
        ),
        typeof fields.rooms === "number" ? eq(listings.rooms, fields.rooms) : isNull(listings.rooms),
        sql`(${listings.fields}->>${areaField(subject.type)})::float8 between ${area * (1 - sameAreaShare)} and ${area / (1 - sameAreaShare)}`,
      ),
    )
    .orderBy(asc(listings.createdAt), asc(listings.id))
    .limit(maxNamedDuplicates * 4);
  const near = (row: { latitude: number | null; longitude: number | null }) =>
    at !== null &&
    row.latitude !== null &&
    row.longitude !== null &&
    metresBetween(at, { latitude: row.latitude, longitude: row.longitude }) <= samePlaceMetres;
  return rows
    .filter((row) => (key !== null && row.addressKey === key) || near(row))
    .filter(
      (row) => row.hash === null || row.subjectHash === null || differingBits(BigInt(row.hash), BigInt(row.subjectHash)) <= samePictureBits,
    )
    .slice(0, maxNamedDuplicates)
    .map(({ id, code, accountId }) => ({ id, code, accountId }));
}

/** The area two listings of a type compare by: usable area for buildings, land area for land and developments. */
const areaField = (type: string) => ((buildings as readonly string[]).includes(type as PropertyType) ? "usable_area_sqm" : "land_area_sqm");

function areaOf(type: string, fields: Record<string, unknown>): number | null {
  const value = fields[areaField(type)];
  return typeof value === "number" && value > 0 ? value : null;
}

interface Position {
  latitude: number;
  longitude: number;
}

function position(fields: Record<string, unknown>): Position | null {
  const { latitude, longitude } = fields;
  return typeof latitude === "number" && typeof longitude === "number" ? { latitude, longitude } : null;
}

const earthRadiusMetres = 6_371_000;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle distance (haversine). */
export function metresBetween(a: Position, b: Position): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLng = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * earthRadiusMetres * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A box holding every point within `samePlaceMetres` (a little wider: the exact distance decides). */
function boxAround({ latitude, longitude }: Position) {
  const dLat = ((samePlaceMetres * 1.01) / earthRadiusMetres) * (180 / Math.PI);
  // Near a pole a degree of longitude shrinks to nothing: the box then spans every longitude.
  const cos = Math.cos(radians(Math.min(89, Math.abs(latitude) + dLat)));
  const dLng = Math.min(180, dLat / cos);
  return { south: latitude - dLat, north: latitude + dLat, west: longitude - dLng, east: longitude + dLng };
}

function differingBits(a: bigint, b: bigint): number {
  let rest = BigInt.asUintN(64, a ^ b);
  let count = 0;
  while (rest) {
    count += Number(rest & 1n);
    rest >>= 1n;
  }
  return count;
}

/**
 * The `possible_duplicate` warnings of a write: one for each of the account's own listings that very
 * likely describes the same place (another account's are never named to it).
 */
export async function duplicateWarnings(db: Handle, subject: DuplicateSubject): Promise<ListingWarning[]> {
  const found = await findLikelyDuplicates(db, subject, "same account");
  return found.map((duplicate) => ({ pointer: "", code: "possible_duplicate", listing: duplicate.code }));
}

/** The subject a stored listing is: its document as it will be published (a waiting edit's), and its cover. */
export function subjectOf(row: ListingRow): DuplicateSubject {
  const fields = row.pendingFields ?? row.fields;
  return {
    id: row.id,
    accountId: row.accountId,
    type: String(fields.type),
    transaction: String(fields.transaction),
    fields,
    coverUrl: row.images[0],
  };
}
