import { z } from "zod";
import { listingStatuses, type events, type listings } from "@/db/schema";
import { rejectionCodes } from "@/lib/domain/vocabulary/rejection-codes";
import { listingUrl } from "@/lib/base/public-urls";
import { eventId } from "./ids";

export { eventId, eventIdPattern, parseEventId } from "./ids";

/**
 * The events' vocabulary, below both the outbox (`lib/domain/events`) and the webhooks that deliver it:
 * the types, their bodies, their ids.
 */

/** The nine event types of release 1.0.0, then those added since. Clients must accept new ones later. */
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
  importCompleted: "import.completed",
} as const;

export type EventType = (typeof eventTypes)[keyof typeof eventTypes];

/** The members every event has besides `type` and `data`: one place for `Event` and the per-type bodies below. */
const eventEnvelope = {
  id: z.string(),
  created_at: z.string().meta({ format: "date-time" }),
};

/** What `GET /events` lists and a webhook delivery sends: the OpenAPI document's `Event`, and the type of `eventBody`. */
export const eventBodySchema = z
  .object({
    id: eventEnvelope.id,
    type: z.string(),
    created_at: eventEnvelope.created_at,
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "Event" });
export type EventBody = z.output<typeof eventBodySchema>;

export function eventBody(row: Pick<typeof events.$inferSelect, "seq" | "type" | "createdAt" | "data">): EventBody {
  return { id: eventId(row.seq), type: row.type, created_at: row.createdAt.toISOString(), data: row.data };
}

type ListingRef = Pick<typeof listings.$inferSelect, "code" | "externalRef" | "status">;

/** `data` of a listing event: the fields every listing event carries, then the type's own (`reason`, `by`, ...). */
export function listingEventData(listing: ListingRef, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    code: listing.code,
    external_ref: listing.externalRef,
    status: listing.status,
    url: listingUrl(listing.code),
    ...extra,
  };
}

/** `data` members of every listing event, as `listingEventData` writes them. */
const listingDataShape = {
  code: z.string().meta({ description: "The listing's code." }),
  external_ref: z.string().nullable().meta({ description: "The integrator's reference of the listing, null when it has none." }),
  status: z.enum(listingStatuses).meta({ description: "The listing's status at the time of the event." }),
  url: z.string().meta({ format: "uri", description: "The listing's public page." }),
};

/** Why a full import was `refused` before writing anything: `GET /listings/imports/{id}` and `import.completed`. */
export const importRefusalSchema = z
  .object({
    code: z.literal("too_many_withdrawals"),
    withdrawals: z.number().int().min(0).meta({ description: "How many listings the file would have withdrawn." }),
    limit: z.number().int().min(0).meta({ description: "The cap: `max_withdrawals`, or half the account's active listings with a ref." }),
  })
  .meta({ id: "ImportRefusal" });

/** How the lines of a bulk import ended: `GET /listings/imports/{id}` and the `import.completed` event. */
export const importTotalsSchema = z
  .object({
    total: z.number().int().min(1).meta({ description: "Lines in the import." }),
    done: z.number().int().min(0).meta({ description: "Lines applied so far: the sum of the line outcomes." }),
    created: z.number().int().min(0).meta({ description: "Lines that created a listing." }),
    updated: z.number().int().min(0).meta({ description: "Lines that changed a listing (or sent its edit to moderation)." }),
    unchanged: z.number().int().min(0).meta({ description: "Lines that changed nothing (the same body again)." }),
    refused: z.number().int().min(0).meta({ description: "Lines refused, each with its problem code and errors." }),
    stale: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Lines whose `source_updated_at` was older than the listing's: nothing written (`stale_source`)." }),
    withdrawn: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Listings a `full` import withdrew (paused) because the file lacked their ref; not counted in `done`." }),
  })
  .meta({ id: "ImportTotals" });

/**
 * `data` of each event type: the listing members, then the type's own. Written
 * once here for the webhook bodies of the OpenAPI document; `GET /events` documents the open `Event`
 * (clients must accept types added later), and can take these when it documents `data` per type.
 */
export const eventDataSchemas = {
  [eventTypes.published]: z.object(listingDataShape),
  [eventTypes.rejected]: z.object({
    ...listingDataShape,
    reason: z.string().meta({ description: "The moderator's explanation." }),
    rejection_codes: z
      .array(z.string())
      .meta({ description: `Why, as stable codes: ${rejectionCodes.codes.map((c) => `\`${c}\``).join(", ")}.` }),
  }),
  [eventTypes.paused]: z.object(listingDataShape),
  [eventTypes.reactivated]: z.object(listingDataShape),
  [eventTypes.sold]: z.object(listingDataShape),
  [eventTypes.withdrawn]: z.object({
    ...listingDataShape,
    by: z.enum(["moderation", "owner"]).meta({ description: "Who withdrew it: hidden by moderation, or deleted by its owner." }),
    deleted: z.literal(true).optional().meta({ description: "Present (true) when the listing was deleted." }),
  }),
  [eventTypes.editedInPortal]: z.object({
    ...listingDataShape,
    etag: z.string().meta({ description: "The listing's new version; re-read it with `GET /account/listings/{code}`." }),
  }),
  [eventTypes.mediaFailed]: z.object({
    ...listingDataShape,
    count: z.number().int().min(1).meta({ description: "How many photos failed." }),
    reason: z.string().meta({
      description:
        "Why the photos were left out: `download_failed`, `unprocessable`, `too_large`, `too_many_pixels`, `upload_missing` (`media_failure_reason` in `GET /schema`); accept other values too.",
    }),
    urls: z
      .array(z.string().meta({ format: "uri" }))
      .optional()
      .meta({ description: "The addresses that could not be downloaded; only when `reason` is `download_failed`." }),
  }),
  [eventTypes.webhookTest]: z.object({
    message: z.string().meta({ description: "The test message." }),
  }),
  [eventTypes.importCompleted]: z.object({
    id: z.string().meta({ description: "The import's id; its line results are read with `GET /listings/imports/{id}`." }),
    status: z.enum(["completed", "cancelled", "failed", "refused"]).meta({
      description:
        "How the import ended: `completed` (every line applied or refused), `cancelled` by its owner, `failed` (see `error_code`), or `refused` before writing anything (see `error`); `lines` counts the lines applied until then.",
    }),
    feed_id: z.string().optional().meta({ description: "Only for an import made by a feed's pull (`POST /feeds`): the feed's id." }),
    error_code: z
      .string()
      .optional()
      .meta({ description: "Only when `failed`: `key_revoked`, `key_expired` or `account_inactive` (accept other values too)." }),
    error: importRefusalSchema.optional().meta({ description: "Only when `refused`: why nothing was written." }),
    lines: importTotalsSchema,
  }),
} satisfies Record<EventType, z.ZodObject>;

/**
 * The body of a webhook delivery of one event type: the event as `GET /events` shows it, with
 * `type` fixed and `data` that type's, plus `connection` on an integrator app's webhook (docs/webhooks.md). `component` names it in the OpenAPI document.
 */
export function webhookEventBodySchema<T extends EventType>(type: T, component: string) {
  return z
    .object({
      id: eventEnvelope.id.meta({
        description: "The event id, equal to the `webhook-id` header and the same on every attempt: deduplicate by it.",
      }),
      type: z.literal(type),
      created_at: eventEnvelope.created_at.meta({ description: "When the event happened (ISO 8601)." }),
      data: eventDataSchemas[type],
      connection: z.number().int().min(1).optional().meta({
        description:
          "Only on the webhook of an integrator app: the `connection_id` of the app's connection to the account the event belongs to. Absent on an account's own webhooks.",
      }),
    })
    .meta({ id: component, description: `Body of a \`${type}\` delivery.` });
}
