import type { Handle } from "@/db";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { SpanKind, SpanStatusCode, traced } from "@/lib/base/tracing";
import { attemptDelivery, RECEIVER_TIMEOUT_MS, type DeliveryAttemptResult } from "./attempt";
import { claimDueDeliveries } from "./internal/claims";
import { deliveryState } from "./internal/delivery-queue";
import { recordDeliveryOutcome, type ClaimedDelivery, type DeliveryOutcome } from "./outcomes";

/**
 * The delivery engine (docs/webhooks.md, Webhooks): both job engines call these functions, and every
 * bit of a delivery's state (attempt count, next attempt, last outcome) is in `webhook_deliveries`.
 *
 * A delivery is `pending` until an engine claims it; the claim marks it `delivering`, counts the
 * attempt and sets `next_attempt_at` to the end of a lease. The attempt runs outside any transaction,
 * then its outcome is written: `succeeded`, `pending` again with the next time of the schedule, or
 * `failed`. A delivery still `delivering` once its lease has ended belongs to a process that died
 * during the attempt: it is due again (at-least-once), and that lost attempt counts.
 *
 * Where each part is: the queue's statements (what is due, the claim, the hand-off, the give-back) in
 * `internal/delivery-queue.ts` and `internal/claims.ts`; the request (signed, sent) in `attempt.ts`;
 * the outcome's write in `outcomes.ts`; here, the attempt of a claimed delivery and the Inngest
 * path's step. What the engines use is exported from this file.
 */

export { deliveriesChannel } from "@/lib/domain/events/fan-out";
export {
  deliveryLeaseSeconds,
  maxClaimedPerWebhook,
  maxDeliveryAttempts,
  maxInFlightPerWebhook,
  retryDelaysSeconds,
} from "./internal/schedule";
export { claimDueDeliveries, recordSuccessesAndHandOff } from "./internal/claims";
export { countDueDeliveries, deliveryBody, findDueDeliveries, nextDeliveryDueAt, releaseClaims } from "./internal/delivery-queue";
export { recordDeliveryOutcome, recordDeliveryOutcomes, type ClaimedDelivery, type DeliveryOutcome } from "./outcomes";

/**
 * A claimed delivery's POST, outside any transaction; never throws for what the receiver or the
 * network does. One client span per attempt, whichever engine runs it; the URL is left out (a
 * receiver's address may carry a token), its host kept.
 */
export function attemptClaimed(input: { claimed: ClaimedDelivery; now: Date; timeoutMs?: number }): Promise<DeliveryAttemptResult> {
  const { claimed, now } = input;
  const attributes = {
    "webhook.id": claimed.webhookId,
    "webhook.delivery.id": claimed.id,
    "webhook.delivery.attempt": claimed.attempt,
    "webhook.event.id": claimed.event.id,
    "server.address": hostOf(claimed.url),
  };
  return traced(
    "webhook.attempt",
    attributes,
    async (span) => {
      const result = await attemptDelivery({
        url: claimed.url,
        secret: claimed.secret,
        event: claimed.event,
        now,
        timeoutMs: input.timeoutMs ?? RECEIVER_TIMEOUT_MS,
      });
      if (result.status !== null) span.setAttribute("http.response.status_code", result.status);
      if (!result.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? `status ${result.status}` });
      return result;
    },
    SpanKind.CLIENT,
  );
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
};

/** One claimed attempt: the POST, then its outcome. */
export async function runClaimedDelivery(
  db: Handle,
  input: { claimed: ClaimedDelivery; now: Date; timeoutMs?: number },
): Promise<DeliveryOutcome> {
  const result = await attemptClaimed(input);
  return recordDeliveryOutcome(db, { claimed: input.claimed, result, now: input.now });
}

export type DeliveryStep =
  | DeliveryOutcome
  | { id: string; status: "waiting"; until: string }
  | { id: string; status: "gone"; reason: "finished" | "missing" | "webhook_stopped" };

/**
 * One attempt of one delivery by id (the Inngest path): claimed like the runner claims, or when
 * it is not due yet (or another run holds it, or its webhook is at its cap) the time to come back.
 */
export async function deliverById({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { id: string; now: Date; timeoutMs?: number };
}): Promise<DeliveryStep> {
  const db = ctx.database.connection;
  const { id, now } = input;
  const [claimed] = await claimDueDeliveries(db, { now, limit: 1, ids: [id] });
  if (claimed) return runClaimedDelivery(db, { claimed, now, timeoutMs: input.timeoutMs });
  const row = await deliveryState(db, id);
  if (!row) return { id, status: "gone", reason: "missing" };
  if (row.status === "succeeded" || row.status === "failed") return { id, status: "gone", reason: "finished" };
  // A stopped webhook's delivery waits for its start; the sweep sends it again then.
  if (!row.active) return { id, status: "gone", reason: "webhook_stopped" };
  const until = row.nextAttemptAt && row.nextAttemptAt > now ? row.nextAttemptAt : new Date(now.getTime() + 5000);
  return { id, status: "waiting", until: until.toISOString() };
}
