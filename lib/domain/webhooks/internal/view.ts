import type { webhooks } from "@/db/schema";

/** A webhook as its owner sees it: never its secret. */
export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  /** Set for an integrator app's webhook. */
  client_id: string | null;
  active: boolean;
  stopped_reason: "owner" | "gone" | "failing" | null;
  stopped_at: Date | null;
  created_at: Date;
  secret_rotated_at: Date | null;
}

export const webhookView = (row: typeof webhooks.$inferSelect): WebhookView => ({
  id: row.id,
  url: row.url,
  events: row.eventTypes,
  client_id: row.clientId,
  active: row.active,
  stopped_reason: row.stoppedReason,
  stopped_at: row.stoppedAt,
  created_at: row.createdAt,
  secret_rotated_at: row.secretRotatedAt,
});
