import { eq, getTableColumns, isNotNull, isNull, or } from "drizzle-orm";
import { events, webhookDeliveries } from "@/db/schema";
import { eventBody, eventTypes } from "@/lib/domain/event-types";
import { cursorTimestamp } from "@/lib/base/cursor";
import { deliveryBody, maxDeliveryAttempts } from "./delivery";

/** One delivery as the delivery log shows it. */
export interface DeliveryView {
  id: string;
  webhook_id: string;
  /** The event's id: the `webhook-id` header of every attempt. */
  event_id: string;
  event_type: string;
  status: "pending" | "delivering" | "succeeded" | "failed";
  attempts: number;
  /** 7 for an event's delivery; 1 for a test delivery (`webhook.test`), which is never retried. */
  max_attempts: number;
  /** The receiver's status on the last attempt; null before the first or when there was no answer. */
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  /** When the next attempt is due (pending), or the end of the running attempt's lease (delivering). */
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * What a delivery log row is selected with: the delivery, its event and the cursor position. Joined
 * with `leftJoin(events, eventOfDelivery)`: a test delivery has no outbox event (`event` null).
 */
export const deliveryColumns = {
  ...getTableColumns(webhookDeliveries),
  event: getTableColumns(events),
  cursorAt: cursorTimestamp(webhookDeliveries.createdAt),
};

export const eventOfDelivery = eq(events.seq, webhookDeliveries.eventSeq);

/**
 * The rows the log shows: every test delivery, and an event's delivery while its event is kept (the
 * log keeps 30 days and events 35, so one without its event is only a leftover of a moved clock).
 */
export const shownDelivery = or(isNull(webhookDeliveries.eventSeq), isNotNull(events.seq))!;

export type DeliveryRow = typeof webhookDeliveries.$inferSelect & { event: typeof events.$inferSelect | null; cursorAt: string };

/** The id of the test event a test delivery's body carries: its `webhook-id`. */
export const testEventId = (body: string): string => (JSON.parse(body) as { id: string }).id;

/** The body every attempt of the delivery sends: its outbox event's, or the test event it keeps. */
export function sentBody(row: DeliveryRow): string {
  if (row.event) return deliveryBody(row.event, row.connectionId);
  if (row.testBody === null) throw new Error(`delivery ${row.id} has neither an event nor a test body`);
  return row.testBody;
}

export const deliveryView = (row: DeliveryRow): DeliveryView => ({
  id: row.id,
  webhook_id: row.webhookId,
  event_id: row.event ? eventBody(row.event).id : testEventId(sentBody(row)),
  event_type: row.event ? row.event.type : eventTypes.webhookTest,
  status: row.status,
  attempts: row.attempts,
  max_attempts: row.event ? maxDeliveryAttempts : 1,
  last_status_code: row.lastStatusCode,
  last_duration_ms: row.lastDurationMs,
  last_error: row.lastError,
  next_attempt_at: row.nextAttemptAt,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});
