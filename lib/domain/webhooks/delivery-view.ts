import { eq, getTableColumns } from "drizzle-orm";
import { events, webhookDeliveries } from "@/db/schema";
import { eventBody } from "@/lib/domain/event-types";
import { cursorTimestamp } from "@/lib/base/cursor";
import { maxDeliveryAttempts } from "./delivery";

/** One delivery as the delivery log shows it. */
export interface DeliveryView {
  id: string;
  webhook_id: string;
  /** The event's id: the `webhook-id` header of every attempt. */
  event_id: string;
  event_type: string;
  status: "pending" | "delivering" | "succeeded" | "failed";
  attempts: number;
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

/** What a delivery log row is selected with: the delivery, its event and the cursor position. */
export const deliveryColumns = {
  ...getTableColumns(webhookDeliveries),
  event: getTableColumns(events),
  cursorAt: cursorTimestamp(webhookDeliveries.createdAt),
};

export const eventOfDelivery = eq(events.seq, webhookDeliveries.eventSeq);

export type DeliveryRow = typeof webhookDeliveries.$inferSelect & { event: typeof events.$inferSelect; cursorAt: string };

export const deliveryView = (row: DeliveryRow): DeliveryView => ({
  id: row.id,
  webhook_id: row.webhookId,
  event_id: eventBody(row.event).id,
  event_type: row.event.type,
  status: row.status,
  attempts: row.attempts,
  max_attempts: maxDeliveryAttempts,
  last_status_code: row.lastStatusCode,
  last_duration_ms: row.lastDurationMs,
  last_error: row.lastError,
  next_attempt_at: row.nextAttemptAt,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});
