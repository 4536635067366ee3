import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { eventTypes, webhookEventBodySchema, type EventType } from "@/lib/domain/events";
import { failingDaysBeforeStop } from "@/lib/domain/webhooks/delivery";

/**
 * The `webhooks` of the OpenAPI document: one `POST` per event type, as the platform
 * sends it to a subscriber's address. The bodies are the per-type schemas of lib/domain/events; the
 * headers and answers are those of the sender (lib/domain/webhooks/attempt.ts, signature.ts).
 */

/** What each event type is, and the name of its body's component. */
const described: Record<EventType, { component: string; summary: string; when: string }> = {
  [eventTypes.published]: {
    component: "ListingPublishedEvent",
    summary: "Listing published",
    when: "The listing became `active`: approved by moderation or confirmed again as available.",
  },
  [eventTypes.rejected]: {
    component: "ListingRejectedEvent",
    summary: "Listing rejected",
    when: "Moderation rejected the listing; `data.reason` and `data.rejection_codes` say why.",
  },
  [eventTypes.paused]: { component: "ListingPausedEvent", summary: "Listing paused", when: "The listing was paused." },
  [eventTypes.reactivated]: {
    component: "ListingReactivatedEvent",
    summary: "Listing reactivated",
    when: "The listing returned from pause.",
  },
  [eventTypes.sold]: { component: "ListingSoldEvent", summary: "Listing sold", when: "The listing was marked sold or rented." },
  [eventTypes.withdrawn]: {
    component: "ListingWithdrawnEvent",
    summary: "Listing withdrawn",
    when: "The listing was hidden by moderation (`data.by` `moderation`) or deleted by its owner (`data.by` `owner`, `data.deleted` true).",
  },
  [eventTypes.editedInPortal]: {
    component: "ListingEditedInPortalEvent",
    summary: "Listing edited in the portal",
    when: "The listing was edited in the portal, not through the API: the integrator's copy is behind; re-read it with `GET /account/listings/{code}` (`data.etag` is the new version).",
  },
  [eventTypes.mediaFailed]: {
    component: "MediaFailedEvent",
    summary: "Photos failed",
    when: "One or more photos of the listing were rejected in processing (`unprocessable`) or could not be downloaded (`download_failed`, with `data.urls`).",
  },
  [eventTypes.webhookTest]: {
    component: "WebhookTestEvent",
    summary: "Test delivery",
    when: "The webhook's test button (or `webhook:test`) was used: sent to that webhook only, signed like any other event, never retried. Its id is not an event of `GET /events`.",
  },
  [eventTypes.importCompleted]: {
    component: "ImportCompletedEvent",
    summary: "Bulk import ended",
    when: "A bulk import (`POST /listings/imports`) ended, once: `data.status` is `completed` (every line applied or refused), `cancelled` (`DELETE /listings/imports/{id}`), `failed` (its key may write no more, `data.error_code`) or `refused` (a `mode=full` import over its `max_withdrawals`, nothing written, `data.error`); `data.lines` counts the outcomes of the lines applied, and `GET /listings/imports/{id}` lists each line's.",
  },
};

const exampleListing = {
  code: "K7M2XQ4P",
  external_ref: "crm-10442",
  url: "https://listings.example.com/listings/K7M2XQ4P",
};

/** An example `data` per type, checked against its schema by tests/api/openapi-webhooks.test.ts. */
export const webhookExampleData: Record<EventType, Record<string, unknown>> = {
  [eventTypes.published]: { ...exampleListing, status: "active" },
  [eventTypes.rejected]: {
    ...exampleListing,
    status: "rejected",
    reason: "The price is per square metre, not for the apartment.",
    rejection_codes: ["misleading_price"],
  },
  [eventTypes.paused]: { ...exampleListing, status: "paused" },
  [eventTypes.reactivated]: { ...exampleListing, status: "active" },
  [eventTypes.sold]: { ...exampleListing, status: "sold" },
  [eventTypes.withdrawn]: { ...exampleListing, status: "hidden", by: "moderation" },
  [eventTypes.editedInPortal]: { ...exampleListing, status: "active", etag: '"5-1f3a9c"' },
  [eventTypes.mediaFailed]: {
    ...exampleListing,
    status: "active",
    count: 1,
    reason: "download_failed",
    urls: ["https://cdn.example.com/photos/k7m2xq4p-3.jpg"],
  },
  [eventTypes.webhookTest]: { message: "Test delivery from the listings platform" },
  [eventTypes.importCompleted]: {
    id: "imp_3k9t2m7q1x8c4v6b",
    status: "completed",
    lines: { total: 120, done: 120, created: 80, updated: 30, unchanged: 8, refused: 2, stale: 0, withdrawn: 0 },
  },
};

/** The request headers of every delivery, signed as Standard Webhooks. */
export const webhookHeaders = z.object({
  "webhook-id": z.string().meta({
    description: "The event id (`id` in the body), the same on every attempt of that event: deduplicate by it (delivery is at least once).",
    example: "evt_00000000a3",
  }),
  "webhook-timestamp": z.number().int().min(0).meta({
    description:
      "Unix seconds when this attempt was sent, fresh on each attempt. Refuse a timestamp more than 5 minutes from your own clock (Standard Webhooks libraries do).",
    example: 1767261600,
  }),
  "webhook-signature": z
    .string()
    .regex(/^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$/)
    .meta({
      description:
        "One or more space-separated `v1,<signature>` entries. The signature is the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the webhook's secret after `whsec_`. Compare in constant time with each `v1` entry, over the raw body bytes before any JSON parsing.",
      example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
    }),
  "User-Agent": z.literal("Service-Webhooks/1").meta({ description: "Identifies the platform's sender." }),
});

const retries =
  "retried after 30 seconds, 2 minutes, 10 minutes, 30 minutes, 2 hours and 6 hours (7 attempts in about 9 hours), then the delivery fails";

function deliveryNote(retried: boolean): string {
  return `Sent as \`POST\` to the webhook's address with \`Content-Type: application/json\`, signed with Standard Webhooks (see the headers). Answer 2xx within 10 seconds; do slow work after answering. Any other status, a redirect (never followed) or no answer within 10 seconds is a failed attempt, ${retried ? retries : "not retried (test deliveries never are)"}. ${retried ? "A delivery can arrive more than once and events can arrive out of order." : "The result is shown to whoever sent the test."}`;
}

function webhookOperation(type: EventType): ZodOpenApiOperationObject {
  const { component, summary, when } = described[type];
  const retried = type !== eventTypes.webhookTest;
  return {
    operationId: `${component.charAt(0).toLowerCase()}${component.slice(1).replace(/Event$/, "")}Webhook`,
    summary,
    description: `\`${type}\`: ${when}\n\n${deliveryNote(retried)}`,
    tags: ["Webhooks"],
    security: [],
    requestParams: { header: webhookHeaders },
    requestBody: {
      required: true,
      description: `The \`${type}\` event.`,
      content: {
        "application/json": {
          schema: webhookEventBodySchema(type, component),
          example: { id: "evt_00000000a3", type, created_at: "2026-01-01T10:00:00.000Z", data: webhookExampleData[type] },
        },
      },
    },
    responses: {
      "2XX": { description: "Delivered: any 2xx status within 10 seconds. The response body is ignored." },
      "410": {
        description: retried
          ? "Gone: the webhook is stopped at once (its owner can start it again in the portal) and this delivery fails."
          : "For a test delivery a failure like any other: the webhook is not stopped.",
      },
      default: {
        description: retried
          ? `Failed attempt: any other status, a redirect (not followed) or no answer within 10 seconds; ${retries}. A webhook whose every attempt has failed for ${failingDaysBeforeStop} days is stopped.`
          : "Failed attempt: any other status, a redirect (not followed) or no answer within 10 seconds; not retried.",
      },
    },
  };
}

/** One webhook per event type, named by the type. */
export function webhookPathItems(): ZodOpenApiPathsObject {
  return Object.fromEntries(Object.values(eventTypes).map((type) => [type, { post: webhookOperation(type) }]));
}
