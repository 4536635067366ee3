import { z } from "zod";
import { AppError, ValidationError } from "@/lib/base/errors";
import type { ListingRow } from "./read-shape";

/**
 * `source_updated_at` of a write body: when the integrator's own system last changed the listing,
 * RFC 3339 with its offset. Not a listing field: it orders writes rather than describing the place.
 */
export const sourceUpdatedAtSchema = z.iso.datetime({ offset: true }).meta({
  description:
    "When your own system last changed this listing (RFC 3339, e.g. `2025-03-01T09:30:00+02:00`). Stored and shown in the detail; a write whose `source_updated_at` is older than the stored one writes nothing and answers 409 `stale_source`. Equal or newer applies as usual.",
});

/**
 * `source_updated_at` as a member of the bodies that take it (`POST /listings`, `PUT /listings/ref/{ref}`,
 * an import's lines), beside the listing's fields (`ListingWrite`): for the OpenAPI document and the
 * typed client. The services take it out of the body with `takeSourceTime`.
 */
export const sourceTimeSchema = z.object({ source_updated_at: sourceUpdatedAtSchema.optional() }).meta({
  id: "SourceTime",
  description:
    "Sent beside the listing's fields by `POST /listings`, `PUT /listings/ref/{ref}` and the lines of `POST /listings/imports`: not a field of the listing, it orders the writes of your system.",
});

/** The body without `source_updated_at`, and that time when it was sent (null when absent or null). */
export interface SourceTimed {
  body: unknown;
  sourceUpdatedAt: Date | null;
}

/**
 * Takes `source_updated_at` out of a write body, checked: a value that is not an RFC 3339 time with
 * its offset is refused at `/source_updated_at`. Any other body is returned as it came.
 */
export function takeSourceTime(body: unknown): SourceTimed {
  if (!body || typeof body !== "object" || Array.isArray(body) || !Object.hasOwn(body, "source_updated_at")) {
    return { body, sourceUpdatedAt: null };
  }
  const { source_updated_at: sent, ...rest } = body as Record<string, unknown>;
  if (sent === null) return { body: rest, sourceUpdatedAt: null };
  if (typeof sent !== "string") throw new ValidationError([{ pointer: "/source_updated_at", code: "string" }]);
  if (!sourceUpdatedAtSchema.safeParse(sent).success) {
    throw new ValidationError([{ pointer: "/source_updated_at", code: "date_format", params: { format: "YYYY-MM-DDThh:mm:ssZ" } }]);
  }
  return { body: rest, sourceUpdatedAt: new Date(sent) };
}

/**
 * Refuses a write older than the one the listing holds (409 `stale_source`); an equal or newer
 * time, or none on either side, lets it through.
 */
export function refuseStaleWrite(row: Pick<ListingRow, "code" | "sourceUpdatedAt">, sent: Date | null): void {
  if (!sent || !row.sourceUpdatedAt || sent.getTime() >= row.sourceUpdatedAt.getTime()) return;
  throw new AppError("stale_source", { code: row.code, stored: row.sourceUpdatedAt.toISOString(), sent: sent.toISOString() });
}
