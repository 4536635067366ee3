/**
 * Webhook delivery, at least once, on the spec's retry schedule, by either job engine (docs/webhooks.md).
 *
 * How a delivery flows. **Fan-out**: `recordEvent` calls `createDeliveries` in the transaction that
 * writes the event, which inserts one `webhook_deliveries` **row** per subscribed active webhook
 * (`pending`, due at once) and a NOTIFY that PostgreSQL sends at commit; on Inngest a registered
 * dispatcher sends each row's event after the commit. The row is the job: every bit of its state is
 * in PostgreSQL. **Claim** (`internal/queue.ts`): the lane woken by the NOTIFY (or Inngest's run)
 * marks due rows `delivering` under a short advisory lock, counts the attempt, sets a 60-second lease
 * and keeps each webhook within its cap. **Attempt** (`internal/attempt.ts`): the signed POST, outside
 * any transaction, never throwing for what the receiver or the network does. **Outcome**
 * (`internal/outcomes.ts`): written only while the claim is still that attempt's: `succeeded`,
 * `pending` again at the next time of the schedule, or `failed` after the 7th attempt or a `410`.
 * A process that dies mid-attempt leaves the row `delivering`; once its lease ends it is due again and
 * that lost attempt counts (at-least-once, never lost). **Health** (`internal/health.ts`): a `410`, or
 * 5 days of failures, stops the webhook and mails its owner. The embedded **lane** (`internal/lane.ts`)
 * claims ahead, group-commits outcomes and hands each succeeded slot to its webhook's next delivery
 * in the outcome's statement; `deliverById` is Inngest's step over the same claim and outcome.
 * A **test delivery** (`webhook.test`, send-test-delivery.ts) is a row too, for the log, but never
 * queued: written after its one attempt, without an outbox event (`event_seq` null, `test_body`).
 */
export { attemptDelivery, deliverById, type AttemptFailure, type DeliveryAttemptResult, type DeliveryStep } from "./internal/attempt";
export { createDeliveries, deliveriesChannel, registerDeliveryDispatcher, type DeliveryDispatcher } from "./internal/create";
export { failingDaysBeforeStop, webhookSuccessRates, type SuccessRate } from "./internal/health";
export { DeliveryLane, defaultMaxInFlight } from "./internal/lane";
export {
  countDueDeliveries,
  deliveryBody,
  deliveryLeaseSeconds,
  findDueDeliveries,
  maxDeliveryAttempts,
  maxInFlightPerWebhook,
  retryDelaysSeconds,
} from "./internal/queue";
