import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { accounts, agencies } from "./accounts";

export const listingStatuses = ["draft", "pending", "active", "rejected", "paused", "hidden", "unconfirmed", "sold"] as const;
export type ListingStatus = (typeof listingStatuses)[number];

export const listings = pgTable(
  "listings",
  {
    id: text("id").primaryKey(),
    code: text("code").notNull().unique(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    agencyId: text("agency_id").references(() => agencies.id),
    externalRef: text("external_ref"),
    type: text("type").notNull(),
    transaction: text("transaction").notNull(),
    status: text("status", { enum: listingStatuses }).notNull(),
    /** The validated write fields as stored (the normalized document of the validator). */
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull(),
    /** An edit of a published listing waiting for moderation: the whole document it would become. */
    pendingFields: jsonb("pending_fields").$type<Record<string, unknown>>(),
    rejectionReason: text("rejection_reason"),
    rejectionCodes: text("rejection_codes").array(),
    // Search columns derived from `fields` on every write; `city` in its search form (searchKey).
    city: text("city"),
    rooms: integer("rooms"),
    priceEur: bigint("price_eur", { mode: "number" }),
    // Where the place is, for the duplicate check (lib/domain/listings/internal/duplicates.ts): its
    // address in the key's form (addressKey) and its coordinates, derived from `fields` like the above.
    addressKey: text("address_key"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    /** Increases on every write: the `etag` version and the order of "last modification". */
    version: integer("version").notNull().default(1),
    modSeq: bigserial("mod_seq", { mode: "number" }).notNull(),
    source: text("source", { enum: ["api", "portal"] }).notNull(),
    mediaProcessing: boolean("media_processing").notNull().default(false),
    images: jsonb("images").$type<string[]>().notNull().default([]),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /** When the owner was last reminded to confirm; a reminder is due again once `confirmed_at` passes it. */
    confirmationRemindedAt: timestamp("confirmation_reminded_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /**
     * When the integrator's own system last changed the listing (`source_updated_at` of a write): a
     * write that says an older time is refused (`stale_source`), so a feed replayed late lands nowhere.
     */
    sourceUpdatedAt: timestamp("source_updated_at", { withTimezone: true }),
    /**
     * The full import that paused it because its file no longer held the listing's ref: a later full
     * import holding the ref resumes it. Null when paused by hand; any other change of status clears it.
     */
    withdrawnByImport: text("withdrawn_by_import"),
  },
  (t) => [
    index("listings_account_mod_idx").on(t.accountId, t.modSeq),
    index("listings_agency_mod_idx").on(t.agencyId, t.modSeq),
    index("listings_catalog_idx").on(t.status, t.modSeq),
    index("listings_catalog_search_idx").on(t.status, t.type, t.transaction, t.city, t.priceEur),
    // A city's listings in catalog order (newest change first), whatever else the search filters on.
    index("listings_catalog_city_idx").on(t.status, t.city, t.modSeq),
    index("listings_confirm_idx").on(t.status, t.confirmedAt),
    // The moderation queue (new listings and edits waiting), oldest change first: a few rows among
    // all listings, so a partial index keeps the desk from scanning the table for `pending_fields`.
    index("listings_moderation_queue_idx")
      .on(t.modSeq)
      .where(sql`deleted_at is null and (status = 'pending' or (pending_fields is not null and status <> 'draft'))`),
    // The duplicate check's two ways to the same place, for one account's listings and across
    // accounts (the moderation desk): equal address keys, and coordinates inside a small box.
    index("listings_duplicate_address_idx")
      .on(t.type, t.transaction, t.addressKey, t.accountId)
      .where(sql`deleted_at is null`),
    index("listings_duplicate_position_idx")
      .on(t.type, t.transaction, t.latitude, t.longitude)
      .where(sql`deleted_at is null`),
    uniqueIndex("listings_external_ref_idx")
      .on(t.accountId, t.externalRef)
      .where(sql`deleted_at is null and external_ref is not null`),
  ],
);

export const listingReports = pgTable(
  "listing_reports",
  {
    id: text("id").primaryKey(),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id),
    reason: text("reason").notNull(),
    reporterEmail: text("reporter_email"),
    status: text("status", { enum: ["open", "closed"] })
      .notNull()
      .default("open"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (t) => [index("listing_reports_open_idx").on(t.listingId, t.status)],
);

export const currencyRates = pgTable("currency_rates", {
  currency: text("currency").primaryKey(),
  /** Value of one unit in euros (reference rate). */
  eurPerUnit: numeric("eur_per_unit", { precision: 18, scale: 8, mode: "number" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    // A single-column key lets the retention job delete expired rows in batches.
    id: bigserial("id", { mode: "number" }).primaryKey(),
    keyId: text("key_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["in_flight", "done"] }).notNull(),
    responseStatus: integer("response_status"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    responseBody: text("response_body"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("idempotency_keys_pk").on(t.keyId, t.idempotencyKey), index("idempotency_keys_expiry_idx").on(t.expiresAt)],
);
