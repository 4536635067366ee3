import { z } from "zod";
import type { events, listings } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { eventId } from "./ids";

/** The nine event types of release 1.0.0 (spec: Events). Clients must accept new ones later. */
export const eventTypes = {
  published: "listing.published",
  rejected: "listing.rejected",
  paused: "listing.paused",
  reactivated: "listing.reactivated",
  sold: "listing.sold",
  withdrawn: "listing.withdrawn",
  editedInPortal: "listing.edited_in_portal",
  mediaFailed: "media.failed",
  webhookTest: "webhook.test",
} as const;

export type EventType = (typeof eventTypes)[keyof typeof eventTypes];

/** What `GET /events` lists and a webhook delivery sends: the OpenAPI document's `Event`, and the type of `eventBody`. */
export const eventBodySchema = z
  .object({
    id: z.string(),
    type: z.string(),
    created_at: z.string().meta({ format: "date-time" }),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "Event" });
export type EventBody = z.output<typeof eventBodySchema>;

export function eventBody(row: typeof events.$inferSelect): EventBody {
  return { id: eventId(row.seq), type: row.type, created_at: row.createdAt.toISOString(), data: row.data };
}

type ListingRef = Pick<typeof listings.$inferSelect, "code" | "externalRef" | "status">;

/** `data` of a listing event: the fields every listing event carries, then the type's own (`reason`, `by`, ...). */
export function listingEventData(listing: ListingRef, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    code: listing.code,
    external_ref: listing.externalRef,
    status: listing.status,
    url: `${config().APP_URL}/listings/${listing.code}`,
    ...extra,
  };
}
