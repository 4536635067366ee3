import { z } from "zod";
import { eventBodySchema } from "@/lib/domain/events";
import { sandboxEventInput } from "@/lib/domain/listings/trigger-sandbox-event";
import { defineRoute } from "@/lib/adapters/http/route";

export const triggerSandboxEventRoute = defineRoute({
  method: "POST",
  path: "/sandbox/events",
  operationId: "triggerSandboxEvent",
  summary: "Trigger an event (sandbox only)",
  description: [
    "Fires an event of one of your listings as the product would, to test your webhook handler: written to the events with its deliveries in one transaction, so it is listed by `GET /events` and delivered to every webhook subscribed to its type (the account's own and its connected apps'), signed and retried like any other. The listing itself does not change.",
    "`data` is the one a real event of that type carries for the listing's current state: `status` is the state the listing is in now; `listing.rejected` takes the listing's moderation `reason` and `rejection_codes`, or a stand-in reason and the first rejection code when it was never rejected; `listing.withdrawn` is `by` `moderation`; `listing.edited_in_portal` carries the listing's current `etag`; `media.failed` counts the listing's failed photos of the first failed photo's `reason` (with their `urls` for `download_failed`), or one `unprocessable` photo when none failed.",
    "Nothing in the event marks it as triggered: your handler receives exactly what it will receive in production. The answer's event `id` (equal to the deliveries' `webhook-id`) is how you recognise it; the endpoint does not exist in production (404, as any unknown path), so a triggered event never reaches a production receiver.",
    "`webhook.test` is not an event of the outbox: the Test button of a webhook in the portal sends it. 409 `listing_action_refused` (reason `events_need_key`) when the listing's account has no API key, since events reach only accounts with one.",
  ].join("\n\n"),
  tags: ["Sandbox"],
  permission: "listings:write",
  body: { schema: sandboxEventInput, example: { type: "listing.sold", code: "K7M2XQ4P" } },
  responses: {
    202: {
      description: "The event, written and queued for the webhooks subscribed to its type.",
      schema: z.object({ data: eventBodySchema }),
    },
  },
  errors: [400, 404, 409, 413, 415, 422],
});
