import { z } from "zod";
import { listingStatuses } from "@/db/schema";

/**
 * The listing read shape in one place: these schemas are what the OpenAPI document
 * shows, and their types are those of `toListingItem` / `toListingDetail` (read-shape.ts),
 * which build it from a row. The test suite checks every real answer against them (tests/support/documented.ts).
 */
const timestamp = z.string().meta({ format: "date-time" });

export const listingItemSchema = z
  .object({
    code: z.string().length(8),
    url: z.string().meta({ description: "Public address of the listing." }),
    type: z.string(),
    subtype: z.string().nullable(),
    transaction: z.string(),
    title: z.string(),
    description: z.string(),
    content_locale: z.string().nullable(),
    price: z.number().int().nullable().meta({ description: "Price converted to euros at the reference rate when written." }),
    currency: z.string().nullable().meta({ description: "Currency of `price`: always `EUR`." }),
    price_period: z.string().meta({ description: "`total` for a total price." }),
    price_declared: z
      .object({ amount: z.number().int(), currency: z.string() })
      .nullable()
      .meta({ description: "The price as submitted." }),
    reserved: z.boolean(),
    negotiable: z.boolean(),
    location: z.object({
      country: z.string(),
      county: z.string().nullable(),
      city: z.string(),
      area: z.string().nullable(),
      lat: z.number(),
      lng: z.number(),
      precision: z.enum(["exact", "street"]).meta({ description: "`exact` when a street number is known." }),
    }),
    facts: z.record(z.string(), z.unknown()).meta({ description: "Type-specific write fields as stored (rooms, floor, areas…)." }),
    features: z.array(z.string()),
    images: z.array(z.string()),
    published_at: timestamp.nullable(),
    updated_at: timestamp,
    attribution: z.object({
      lister: z.string(),
      source: z.enum(["api", "portal"]),
      source_label: z.string(),
      source_external_id: z.string().nullable(),
    }),
  })
  .meta({ id: "ListingItem" });

export const listingDetailSchema = listingItemSchema
  .extend({
    location: listingItemSchema.shape.location.extend({
      address: z.string().nullable(),
      street: z.string().nullable(),
      street_number: z.string().nullable(),
      street_manual: z.boolean().nullable(),
      landmark: z.string().nullable(),
    }),
    contact_phone: z.string().nullable().meta({ description: "`contact_phone` as sent, else the account's phone." }),
    external_ref: z.string().nullable(),
    status: z.enum(listingStatuses),
    moderation: z.object({ edit_pending: z.boolean(), rejection_reason: z.string().nullable(), rejection_codes: z.array(z.string()) }),
    media: z.object({ processing: z.boolean() }),
    etag: z.string().meta({ description: "Equals the `ETag` header; send it back in `If-Match`." }),
    source_updated_at: timestamp.nullable().meta({
      description:
        "The latest `source_updated_at` a write sent: when your own system last changed the listing. A write that sends an older one is refused (409 `stale_source`). Null when no write sent one.",
    }),
  })
  .meta({ id: "ListingDetail" });

export type ListingItem = z.output<typeof listingItemSchema>;
export type ListingDetail = z.output<typeof listingDetailSchema>;

export const warningSchema = z
  .object({
    pointer: z.string(),
    code: z.string(),
    listing: z
      .string()
      .length(8)
      .optional()
      .meta({ description: "With `possible_duplicate`: the code of the account's own listing that very likely describes the same place." }),
  })
  .meta({ id: "Warning" });

export const listingEnvelopeSchema = z
  .object({ data: listingDetailSchema, warnings: z.array(warningSchema) })
  .meta({ id: "ListingEnvelope", description: "Body of every listing write and of the detail read." });

export const listingCollectionSchema = (item: z.ZodType, id: string) =>
  z
    .object({
      data: z.array(item),
      links: z.object({ first: z.string(), last: z.string(), prev: z.string().nullable(), next: z.string().nullable() }),
      meta: z.object({
        path: z.string(),
        per_page: z.number().int(),
        next_cursor: z.string().nullable(),
        prev_cursor: z.string().nullable(),
      }),
    })
    .meta({ id });
