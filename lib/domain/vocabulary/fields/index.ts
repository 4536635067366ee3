import { coreFields } from "./core";
import { extraFields } from "./extras";
import { factFields } from "./facts";
import type { FieldSpec, FieldValue } from "./spec";

export type * from "./spec";

/** Every writable listing field, in one fixed order: errors are reported in this order. */
export const writeFields = { ...coreFields, ...factFields, ...extraFields } satisfies Record<string, FieldSpec>;

export type WriteFieldName = keyof typeof writeFields;

export const writeFieldNames = Object.keys(writeFields) as WriteFieldName[];

export const isWriteField = (name: string): name is WriteFieldName => Object.hasOwn(writeFields, name);

/** The normalized document a listing stores: only known fields, only those that apply, no nulls. */
export type ListingWriteFields = { -readonly [K in WriteFieldName]?: FieldValue<(typeof writeFields)[K]> };

/**
 * Members of the read shape that a write cannot set, with the reason given in `invalid`: the server
 * sets them, or (photos) they have their own endpoint.
 */
export const refusedMembers: Readonly<Record<string, "read_only" | "photos_endpoint">> = {
  code: "read_only",
  url: "read_only",
  status: "read_only",
  moderation: "read_only",
  media: "read_only",
  etag: "read_only",
  published_at: "read_only",
  updated_at: "read_only",
  attribution: "read_only",
  images: "read_only",
  facts: "read_only",
  location: "read_only",
  price_declared: "read_only",
  currency: "read_only",
  photos: "photos_endpoint",
};
