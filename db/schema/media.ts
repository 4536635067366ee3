import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { listings } from "./listings";

/**
 * Pre-signed uploads (`POST /uploads`): the terms the URL was signed with, kept so that the upload
 * route refuses a second use of a key and a photo list finds whose key it is. The bytes live in file
 * storage under `uploads/<key>`, stored raw; the content type is this row's.
 */
export const uploads = pgTable(
  "uploads",
  {
    key: text("key").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    contentLength: integer("content_length").notNull(),
    contentType: text("content_type").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** When the upload route took the key (set before the body is read, so a replay is refused at once). */
    usedAt: timestamp("used_at", { withTimezone: true }),
    /** When the whole body was in storage; null while it streams, and after a failed upload. */
    storedAt: timestamp("stored_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("uploads_account_idx").on(t.accountId), index("uploads_created_idx").on(t.createdAt)],
);

export const photoStates = ["pending", "processing", "done", "failed"] as const;
export type PhotoState = (typeof photoStates)[number];

/** One stored rendition of a photo. */
export interface PhotoDerivative {
  key: string;
  url: string;
  contentType: string;
  width: number;
  height: number;
  size: number;
}

export type PhotoDerivatives = Record<"webp_1600" | "webp_400" | "jpeg_1600", PhotoDerivative>;

/**
 * The ordered photos of a listing (`PUT /listings/{code}/photos`), from a URL or an upload key. A
 * photo keeps its row, and its derivatives, while later lists name the same URL or key: a reorder
 * costs no image work. Processing state and failure reason are kept per photo.
 */
export const photos = pgTable(
  "photos",
  {
    id: text("id").primaryKey(),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    sourceUrl: text("source_url"),
    uploadKey: text("upload_key").references(() => uploads.key, { onDelete: "set null" }),
    floor: text("floor"),
    rooms: text("rooms")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    state: text("state", { enum: photoStates }).notNull().default("pending"),
    failureReason: text("failure_reason"),
    /** When the failure went out in a `media.failed` event (null: not yet). */
    failureReportedAt: timestamp("failure_reported_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    derivatives: jsonb("derivatives").$type<PhotoDerivatives>(),
    placeholder: text("placeholder"),
    /**
     * The photo's 64-bit difference hash (dHash, as a signed integer): near for the same picture
     * resized or recompressed. Made for every photo, for a reorder makes any of them the cover;
     * null for photos processed before it existed.
     */
    perceptualHash: bigint("perceptual_hash", { mode: "bigint" }),
    width: integer("width"),
    height: integer("height"),
    /** Bytes of the source file. */
    size: integer("size"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (t) => [index("photos_listing_idx").on(t.listingId, t.position), index("photos_upload_idx").on(t.uploadKey)],
);

/**
 * A listing's photo work: `revision` grows with every photo list, and one worker at a time holds
 * the listing until `workerUntil` (per-listing concurrency of one on both job engines). A worker
 * gives the listing up only when the revision it finished is still the latest, so a list sent while
 * it worked is never left unprocessed.
 */
export const photoLists = pgTable("photo_lists", {
  listingId: text("listing_id")
    .primaryKey()
    .references(() => listings.id, { onDelete: "cascade" }),
  revision: integer("revision").notNull().default(1),
  workerUntil: timestamp("worker_until", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Files no longer referenced (derivatives of replaced or deleted photos), written in the transaction
 * that dropped the reference; the clean-up job deletes them from storage.
 */
export const blobGarbage = pgTable(
  "blob_garbage",
  {
    key: text("key").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("blob_garbage_created_idx").on(t.createdAt)],
);
