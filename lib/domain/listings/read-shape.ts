import { createHash } from "node:crypto";
import type { listings } from "@/db/schema";
import { baseCurrency } from "@/lib/domain/currency/currencies";
import { listingUrl } from "@/lib/base/public-urls";
import { defaultCountry } from "@/lib/domain/vocabulary/fields/core";
import type { ListingDetail, ListingItem } from "./schemas";

export type ListingRow = typeof listings.$inferSelect;

/** A listing's row with who lists it (the agency's name, else the account's) and the account's phone: what services return. */
export interface ListedRow {
  row: ListingRow;
  lister: string;
  accountPhone: string | null;
  modSeq: number;
}

/** Write fields shown at the top level or inside `location` rather than in `facts`. */
const topLevel = new Set([
  "type",
  "subtype",
  "transaction",
  "title",
  "description",
  "content_locale",
  "price",
  "price_currency",
  "price_period",
  "reserved",
  "negotiable",
  "features",
  "external_ref",
  "contact_phone",
  "country",
  "county",
  "city",
  "area",
  "latitude",
  "longitude",
  "address",
  "street",
  "street_number",
  "street_manual",
  "landmark",
]);

/** Strong ETag of a listing version; opaque to clients. */
export function listingEtag(row: Pick<ListingRow, "id" | "version">): string {
  return `"${createHash("sha256").update(`${row.id}:${row.version}`).digest("base64url").slice(0, 22)}"`;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const str = (v: unknown) => (v === undefined ? null : (v as string | null));

/**
 * The list-item shape (the detail's fields up to `attribution`). Its type is the one of
 * `listingItemSchema` (schemas.ts, which the OpenAPI document shows): one source for both, so a
 * member added here and not there, or typed differently, does not compile.
 */
export function toListingItem(row: ListingRow, lister: string): ListingItem {
  const f = row.fields;
  const facts: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(f)) if (!topLevel.has(name)) facts[name] = value;
  return {
    code: row.code,
    url: listingUrl(row.code),
    type: row.type,
    subtype: str(f.subtype),
    transaction: row.transaction,
    title: f.title as string,
    description: f.description as string,
    content_locale: str(f.content_locale),
    price: row.priceEur,
    currency: row.priceEur === null ? null : baseCurrency,
    price_period: (f.price_period as string | undefined) ?? "total",
    price_declared:
      f.price === undefined || f.price === null
        ? null
        : { amount: f.price as number, currency: (f.price_currency as string | undefined) ?? baseCurrency },
    reserved: (f.reserved as boolean | undefined) ?? false,
    negotiable: (f.negotiable as boolean | undefined) ?? false,
    location: {
      country: (f.country as string | undefined) ?? defaultCountry,
      county: str(f.county),
      city: f.city as string,
      area: str(f.area),
      lat: f.latitude as number,
      lng: f.longitude as number,
      precision: f.street_number ? "exact" : "street",
    },
    facts,
    features: (f.features as string[] | undefined) ?? [],
    images: row.images,
    published_at: iso(row.publishedAt),
    updated_at: row.updatedAt.toISOString(),
    attribution: {
      lister,
      source: row.source,
      source_label: row.source === "api" ? "API" : "Portal",
      source_external_id: row.externalRef,
    },
  };
}

/** The detail shape: the item plus `external_ref`, `status`, `moderation`, `media`, `etag`; typed by `listingDetailSchema`. */
export function toListingDetail(row: ListingRow, lister: string, contactPhone: string | null): ListingDetail {
  const item = toListingItem(row, lister);
  const f = row.fields;
  return {
    ...item,
    location: {
      ...item.location,
      address: str(f.address),
      street: str(f.street),
      street_number: str(f.street_number),
      street_manual: (f.street_manual as boolean | undefined) ?? null,
      landmark: str(f.landmark),
    },
    contact_phone: (f.contact_phone as string | undefined) ?? contactPhone,
    external_ref: row.externalRef,
    status: row.status,
    moderation: {
      edit_pending: row.pendingFields !== null,
      rejection_reason: row.rejectionReason,
      rejection_codes: row.rejectionCodes ?? [],
    },
    media: { processing: row.mediaProcessing },
    etag: listingEtag(row),
    source_updated_at: iso(row.sourceUpdatedAt),
  };
}

export type { ListingDetail, ListingItem };

/** The API's full shape of a listing a service returned (`GET /account/listings/{code}`). */
export const detailOf = (listed: ListedRow): ListingDetail => toListingDetail(listed.row, listed.lister, listed.accountPhone);

/** The API's list shape of a listing a service returned (catalog and list items). */
export const itemOf = (listed: ListedRow): ListingItem => toListingItem(listed.row, listed.lister);
