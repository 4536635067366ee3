import { and, eq, gte, isNotNull, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { webhookDeliveries } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { withTransaction, type AccountActor, type ServiceContext, type TransactionContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { idPattern } from "@/lib/base/ids";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { deliveriesChannel } from "./delivery";
import { lockOwnWebhook } from "./internal/own-webhook";
import { resendTestDelivery, type TestDeliveryResult } from "./send-test-delivery";

const d = webhookDeliveries;

/** Not in flight: an attempt holding its lease is left to finish (its outcome would otherwise be dropped mid-flight). */
const notInFlight = (now: Date) => or(ne(d.status, "delivering"), lte(d.nextAttemptAt, now))!;

/**
 * Makes deliveries due now with a fresh schedule of 7 attempts: the same event, so the same body and
 * `webhook-id`, with a new `webhook-timestamp` at the attempt. A stopped webhook's resent deliveries
 * wait for it to be started. Wakes every instance's delivery runner at commit.
 */
async function resend(tx: TransactionContext<AccountActor>, where: SQL): Promise<number> {
  const resent = await tx.db
    .update(d)
    .set({ status: "pending", attempts: 0, nextAttemptAt: tx.now, updatedAt: tx.now })
    .where(and(where, notInFlight(tx.now)))
    .returning({ id: d.id });
  if (resent.length > 0) await tx.db.execute(sql`select pg_notify(${deliveriesChannel}, '')`);
  return resent.length;
}

export interface ResendResult {
  /** False when an attempt of the delivery is running right now: it is left to end. */
  resent: boolean;
  webhook_active: boolean;
  /** A test delivery's attempt, made at once (a `webhook.test` is sent once, never queued); null for an event's delivery, which is queued. */
  test: TestDeliveryResult | null;
}

/**
 * Resends one delivery of one of the account's webhooks, whatever its state: a receiver that lost a
 * delivered event may want it again. An event's delivery is queued again (`resend`); a test
 * delivery is sent again at once, once, stopped webhook or not, as the Test button sends it.
 * Another account's delivery is not found. Resolves with whether it was resent: a delivery whose
 * attempt is running right now is not.
 */
export async function resendDelivery({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { webhookId: string; id: string; timeoutMs?: number };
}): Promise<ResendResult> {
  if (!idPattern("webhookDelivery").test(input.id)) throw notFound();
  const found = await withTransaction(ctx, async (tx) => {
    const webhook = await lockOwnWebhook(tx, input.webhookId);
    const [delivery] = await tx.db
      .select({ id: d.id, testBody: d.testBody })
      .from(d)
      .where(and(eq(d.id, input.id), eq(d.webhookId, webhook.id)));
    if (!delivery) throw notFound();
    const count = delivery.testBody === null ? await resend(tx, eq(d.id, delivery.id)) : 1;
    if (count > 0) {
      await recordActivity(tx.db, {
        accountId: webhook.accountId,
        actor: ctx.actor,
        action: "webhook.delivery_resent",
        subjectId: delivery.id,
        details: webhook.url,
      });
    }
    return { webhook, delivery, resent: count > 0 };
  });
  const { webhook, delivery, resent } = found;
  // The test's attempt after the commit: no lock is held while the receiver answers.
  const test =
    delivery.testBody === null
      ? null
      : await resendTestDelivery(ctx, { id: delivery.id, webhook, body: delivery.testBody, timeoutMs: input.timeoutMs });
  return { resent, webhook_active: webhook.active, test };
}

export const resendFailedInput = z.object({ webhookId: z.string().max(100), since: z.date() });

/**
 * The portal's bulk resend: every failed delivery of one of the account's webhooks made since a
 * moment, queued again. Test deliveries are left out: each is sent again by its own Resend or a new
 * test, one request at once, not by a batch queued for retries.
 */
export async function resendFailedDeliveries({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: z.input<typeof resendFailedInput>;
}): Promise<{ resent: number; webhook_active: boolean }> {
  const data = parseOrThrow(resendFailedInput, input);
  return withTransaction(ctx, async (tx) => {
    const webhook = await lockOwnWebhook(tx, data.webhookId);
    const count = await resend(
      tx,
      and(eq(d.webhookId, webhook.id), eq(d.status, "failed"), gte(d.createdAt, data.since), isNotNull(d.eventSeq))!,
    );
    if (count > 0) {
      await recordActivity(tx.db, {
        accountId: webhook.accountId,
        actor: ctx.actor,
        action: "webhook.deliveries_resent",
        subjectId: webhook.id,
        details: webhook.url,
      });
    }
    return { resent: count, webhook_active: webhook.active };
  });
}
