import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { connectionIdColumn, oauthClients } from "./oauth";

/**
 * An account's webhook endpoints (at most 5, app webhooks included). With `client_id` the webhook is
 * an integrator app's (one per app): it receives the events of the accounts connected to that app,
 * each delivery carrying its `connection`. The secret is kept encrypted (AES-256-GCM, key derived
 * from AUTH_SECRET), not hashed: signing needs the plain secret.
 */
export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    clientId: text("client_id").references(() => oauthClients.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    eventTypes: text("event_types").array().notNull(),
    secretSealed: text("secret_sealed").notNull(),
    active: boolean("active").notNull().default(true),
    // Why a webhook is stopped: by its owner, a `410 Gone` from the receiver, or deliveries failing for days.
    stoppedReason: text("stopped_reason", { enum: ["owner", "gone", "failing"] }),
    stoppedAt: timestamp("stopped_at", { withTimezone: true }),
    // Since when every attempt has failed (null after a success): the health check stops the webhook after 5 days.
    failingSince: timestamp("failing_since", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    secretRotatedAt: timestamp("secret_rotated_at", { withTimezone: true }),
  },
  (t) => [
    index("webhooks_account_idx").on(t.accountId),
    uniqueIndex("webhooks_client_idx")
      .on(t.clientId)
      .where(sql`client_id is not null`),
    check("webhooks_stopped_check", sql`active = (stopped_reason is null) and active = (stopped_at is null)`),
  ],
);

/**
 * One delivery of one outbox event to one webhook, made in the transaction that records the event.
 * The attempt state lives here so that either job engine resumes it after a restart. The webhook-id
 * header is the event's id (`eventId(event_seq)`), the same on every attempt.
 *
 * A test delivery (`webhook.test`, the Test button) is logged here too, with no outbox event: its
 * body as sent in `test_body`, `event_seq` null. It is made with its one attempt done and is never
 * queued (the spec does not retry it), so it is always `succeeded` or `failed`.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    // The event's `seq`. No foreign key: events is partitioned, its key is (seq, created_at), and
    // dropping an events partition deletes that partition's deliveries first (worker/partitions.ts).
    // Null for a test delivery, which no outbox event backs.
    eventSeq: bigint("event_seq", { mode: "number" }),
    // A test delivery's body, the exact bytes signed and sent (so a resend sends the same): the
    // `webhook.test` event, whose id is its `webhook-id`. Null for an outbox event's delivery.
    testBody: text("test_body"),
    // Set when the webhook is an app's: the connection whose account the event belongs to.
    connectionId: connectionIdColumn(),
    status: text("status", { enum: ["pending", "delivering", "succeeded", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastDurationMs: integer("last_duration_ms"),
    lastResponseExcerpt: text("last_response_excerpt"),
    // The headers of the last attempt as sent (the signature is no secret; the secret is never stored here).
    lastRequestHeaders: jsonb("last_request_headers").$type<Record<string, string>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Either an outbox event's delivery, or a test delivery: never queued, so already ended.
    check(
      "webhook_deliveries_test_check",
      sql`case when event_seq is null then test_body is not null and status in ('succeeded', 'failed') else test_body is null end`,
    ),
    // Event first: it also serves dropping an events partition, which deletes its events' deliveries.
    uniqueIndex("webhook_deliveries_event_webhook_idx").on(t.eventSeq, t.webhookId),
    // Due deliveries in due order: a claim reads the first few, however long the backlog behind them.
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status in ('pending', 'delivering')`),
    // One webhook's due deliveries in due order: the lane hands an ended attempt's slot to the next.
    index("webhook_deliveries_webhook_due_idx")
      .on(t.webhookId, t.nextAttemptAt)
      .where(sql`status in ('pending', 'delivering')`),
    // Attempts in flight by lease end: the per-webhook count and the leases ended in their last attempt.
    index("webhook_deliveries_in_flight_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'delivering'`),
    index("webhook_deliveries_webhook_created_idx").on(t.webhookId, t.createdAt),
    index("webhook_deliveries_created_idx").on(t.createdAt),
  ],
);

/**
 * The sandbox's webhook receiver (`/sandbox/webhooks`): what arrived at an account's receiver address,
 * as an integrator's server would see it, with whether the signature verified against one of that
 * account's webhooks. Sandbox only; kept 7 days by the retention job and at most 100 per account.
 */
export const sandboxWebhookReceipts = pgTable(
  "sandbox_webhook_receipts",
  {
    // Never shown outside the sandbox page, so a plain serial (no prefixed public id); it also orders ties.
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    // The webhook whose secret verified the signature; null when none did.
    webhookId: text("webhook_id").references(() => webhooks.id, { onDelete: "set null" }),
    verified: boolean("verified").notNull(),
    // Why it did not verify: a missing header, a timestamp too far from now, or no secret of the account's matching.
    failure: text("failure", { enum: ["missing_headers", "timestamp_out_of_range", "signature_mismatch"] }),
    messageId: text("message_id"),
    eventType: text("event_type"),
    headers: jsonb("headers").$type<Record<string, string>>().notNull(),
    body: text("body").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("sandbox_webhook_receipts_account_idx").on(t.accountId, t.receivedAt),
    index("sandbox_webhook_receipts_received_idx").on(t.receivedAt),
  ],
);
