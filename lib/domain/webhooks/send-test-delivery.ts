import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import { eventTypes } from "@/lib/domain/event-types";
import type { AccountActor, ServiceContext, StaffActor } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { idPattern, idPrefixes } from "@/lib/base/ids";
import { attemptDelivery, type AttemptFailure } from "./delivery";
import { signingSecretOf } from "./webhook-signing-secret";

export interface TestDeliveryResult {
  /** The test event's id (its `webhook-id`): not an outbox event, so `GET /events` never lists it. */
  event_id: string;
  ok: boolean;
  /** The receiver's status, null when there was no answer. */
  status: number | null;
  duration_ms: number;
  error: AttemptFailure | null;
}

export const defaultTestMessage = "Test delivery from the listings platform";

/**
 * The Test button (a `webhook.test` event signed like any other, only to that webhook, not
 * retried): one attempt now, its result returned at once. Nothing is queued, so nothing retries it;
 * a stopped webhook can be tested too. An account reaches only its own webhooks (another's is 404).
 */
export async function sendTestDelivery({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor | StaffActor>;
  input: { id: string; message?: string; timeoutMs?: number };
}): Promise<TestDeliveryResult> {
  if (!idPattern("webhook").test(input.id)) throw notFound();
  const owner = ctx.actor.kind === "api" || ctx.actor.kind === "account" ? eq(webhooks.accountId, ctx.actor.accountId) : undefined;
  const [webhook] = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, input.id), owner));
  if (!webhook) throw notFound();
  const id = `${idPrefixes.event}_test_${randomBytes(8).toString("hex")}`;
  const body = JSON.stringify({
    id,
    type: eventTypes.webhookTest,
    created_at: ctx.now.toISOString(),
    data: { message: input.message ?? defaultTestMessage },
  });
  const result = await attemptDelivery({
    url: webhook.url,
    secret: signingSecretOf(webhook),
    event: { id, body },
    now: ctx.now,
    timeoutMs: input.timeoutMs,
  });
  return { event_id: id, ok: result.ok, status: result.status, duration_ms: result.durationMs, error: result.error };
}
