import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { webhookDeliveries, webhooks } from "@/db/schema";
import { eventTypes } from "@/lib/domain/event-types";
import type { AccountActor, ServiceContext, StaffActor } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { idPattern, idPrefixes, newId } from "@/lib/base/ids";
import { attemptDelivery, type AttemptFailure, type DeliveryAttemptResult } from "./delivery";
import { testEventId } from "./delivery-view";
import { signingSecretOf } from "./webhook-signing-secret";

export interface TestDeliveryResult {
  /** The test delivery's row in the webhook's delivery log. */
  delivery_id: string;
  /** The test event's id (its `webhook-id`): not an outbox event, so `GET /events` never lists it. */
  event_id: string;
  ok: boolean;
  /** The receiver's status, null when there was no answer. */
  status: number | null;
  duration_ms: number;
  error: AttemptFailure | null;
}

export const defaultTestMessage = "Test delivery from the listings platform";

type Target = Pick<typeof webhooks.$inferSelect, "id" | "url" | "secretSealed">;

/**
 * The Test button (a `webhook.test` event signed like any other, only to that webhook, not
 * retried): one attempt now, its result returned at once and kept in the webhook's delivery log like
 * any delivery (ended at once: `succeeded` or `failed` after its one attempt). Nothing is queued, so
 * nothing retries it; a stopped webhook can be tested too. An account reaches only its own webhooks
 * (another's is 404).
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
  const eventId = `${idPrefixes.event}_test_${randomBytes(8).toString("hex")}`;
  const body = JSON.stringify({
    id: eventId,
    type: eventTypes.webhookTest,
    created_at: ctx.now.toISOString(),
    data: { message: input.message ?? defaultTestMessage },
  });
  const result = await attemptTest({ webhook, eventId, body, now: ctx.now, timeoutMs: input.timeoutMs });
  // Written after the attempt, outside any transaction: the request is not held while a row waits.
  const id = newId("webhookDelivery");
  await ctx.db
    .insert(webhookDeliveries)
    .values({ id, webhookId: webhook.id, eventSeq: null, testBody: body, createdAt: ctx.now, ...testOutcome(result, ctx.now) });
  return testResult(id, eventId, result);
}

/**
 * A test delivery sent again (Resend in its log): the same body and `webhook-id` with a new
 * `webhook-timestamp`, one attempt now, whose outcome replaces the last one on its row. Still never
 * queued nor retried: it is tried once each time it is sent, as the spec says of `webhook.test`.
 */
export async function resendTestDelivery(
  ctx: ServiceContext,
  input: { id: string; webhook: Target; body: string; timeoutMs?: number },
): Promise<TestDeliveryResult> {
  const eventId = testEventId(input.body);
  const result = await attemptTest({ webhook: input.webhook, eventId, body: input.body, now: ctx.now, timeoutMs: input.timeoutMs });
  await ctx.db.update(webhookDeliveries).set(testOutcome(result, ctx.now)).where(eq(webhookDeliveries.id, input.id));
  return testResult(input.id, eventId, result);
}

function attemptTest(input: { webhook: Target; eventId: string; body: string; now: Date; timeoutMs?: number }) {
  return attemptDelivery({
    url: input.webhook.url,
    secret: signingSecretOf(input.webhook),
    event: { id: input.eventId, body: input.body },
    now: input.now,
    timeoutMs: input.timeoutMs,
  });
}

/** What one attempt leaves on a test delivery's row: ended either way, since no test is retried. */
function testOutcome(result: DeliveryAttemptResult, now: Date) {
  return {
    status: result.ok ? ("succeeded" as const) : ("failed" as const),
    attempts: 1,
    nextAttemptAt: null,
    lastStatusCode: result.status,
    lastError: result.error,
    lastDurationMs: result.durationMs,
    lastResponseExcerpt: result.responseExcerpt,
    lastRequestHeaders: result.request.headers,
    // When the receiver answered, as the queue's outcomes write it.
    updatedAt: new Date(now.getTime() + result.durationMs),
  };
}

const testResult = (deliveryId: string, eventId: string, result: DeliveryAttemptResult): TestDeliveryResult => ({
  delivery_id: deliveryId,
  event_id: eventId,
  ok: result.ok,
  status: result.status,
  duration_ms: result.durationMs,
  error: result.error,
});
