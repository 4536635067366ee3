import type { Handle } from "@/db";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { SpanKind, SpanStatusCode, traced } from "@/lib/base/tracing";
import { OutboundError, safeRequest, type OutboundFailure } from "@/lib/infra/net/safe-request";
import { signWebhook } from "../../signature";
import { recordDeliveryOutcomes, type DeliveryOutcome } from "./outcomes";
import { claimDueDeliveries, deliveryState, type ClaimedDelivery } from "./queue";

export type AttemptFailure = OutboundFailure | "redirect_not_followed" | "status_not_2xx" | "secret_unreadable";

export interface DeliveryAttemptInput {
  url: string;
  /** Null when the stored secret does not open (`signingSecretOf`): nothing is sent, the attempt fails as `secret_unreadable`. */
  secret: string | null;
  /** `body` is the exact JSON sent and signed; `id` is the event id, the same on every attempt. */
  event: { id: string; body: string };
  /** The attempt's moment: `webhook-timestamp` is fresh on each attempt, so receivers' 5-minute window holds on retries. */
  now: Date;
  timeoutMs?: number;
}

export interface DeliveryAttemptResult {
  ok: boolean;
  /** The receiver's status, null when there was no answer. */
  status: number | null;
  durationMs: number;
  error: AttemptFailure | null;
  /** The start of the receiver's answer, for the delivery log. */
  responseExcerpt: string | null;
  /** The headers sent, for the delivery log (the body is the event's). */
  request: { headers: Record<string, string> };
}

/** How long a receiver has to answer, as subscribers are told; later is a failed attempt. */
const RECEIVER_TIMEOUT_MS = 10_000;
/** Enough of an answer to show in the delivery log. */
const RESPONSE_EXCERPT_BYTES = 2048;

/**
 * One signed POST of one event to one webhook (a delivery's attempt, and the portal's test event).
 * It never throws for anything the receiver or the network does: those are failures with a stable reason.
 */
export async function attemptDelivery({
  url,
  secret,
  event,
  now,
  timeoutMs = RECEIVER_TIMEOUT_MS,
}: DeliveryAttemptInput): Promise<DeliveryAttemptResult> {
  if (secret === null) {
    return { ok: false, status: null, durationMs: 0, error: "secret_unreadable", responseExcerpt: null, request: { headers: {} } };
  }
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = {
    "content-type": "application/json",
    "user-agent": "Service-Webhooks/1",
    "webhook-id": event.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook({ secret, id: event.id, timestamp, body: event.body }),
  };
  try {
    // safeRequest checks the address again on every attempt: a webhook's host may resolve elsewhere since its creation.
    const response = await safeRequest({
      method: "POST",
      url,
      headers,
      body: event.body,
      timeoutMs,
      read: "excerpt",
      maxBytes: RESPONSE_EXCERPT_BYTES,
    });
    // A 2xx is a delivery; a redirect is a failure too, and never followed (its target was never checked).
    const { status } = response;
    const error = status >= 200 && status < 300 ? null : status >= 300 && status < 400 ? "redirect_not_followed" : "status_not_2xx";
    return {
      ok: error === null,
      status,
      durationMs: response.durationMs,
      error,
      // PostgreSQL text holds no U+0000 (STACK.md): a receiver's NUL is kept as U+FFFD, as the sandbox receiver keeps a body.
      responseExcerpt: new TextDecoder().decode(response.body).replaceAll("\u0000", "\uFFFD"),
      request: { headers },
    };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return { ok: false, status: null, durationMs: error.durationMs, error: error.reason, responseExcerpt: null, request: { headers } };
  }
}

/**
 * A claimed delivery's POST, outside any transaction. One client span per attempt, whichever engine
 * runs it; the URL is left out (a receiver's address may carry a token), its host kept.
 */
export function attemptClaimed(input: { claimed: ClaimedDelivery; now: Date; timeoutMs?: number }): Promise<DeliveryAttemptResult> {
  const { claimed, now, timeoutMs } = input;
  const attributes = {
    "webhook.id": claimed.webhookId,
    "webhook.delivery.id": claimed.id,
    "webhook.delivery.attempt": claimed.attempt,
    "webhook.event.id": claimed.event.id,
    "server.address": URL.parse(claimed.url)?.host ?? "",
  };
  return traced(
    "webhook.attempt",
    attributes,
    async (span) => {
      const result = await attemptDelivery({ url: claimed.url, secret: claimed.secret, event: claimed.event, now, timeoutMs });
      if (result.status !== null) span.setAttribute("http.response.status_code", result.status);
      if (!result.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? `status ${result.status}` });
      return result;
    },
    SpanKind.CLIENT,
  );
}

/** One claimed attempt: the POST, then its outcome. */
export async function runClaimedDelivery(
  db: Handle,
  input: { claimed: ClaimedDelivery; now: Date; timeoutMs?: number },
): Promise<DeliveryOutcome> {
  const result = await attemptClaimed(input);
  const [outcome] = await recordDeliveryOutcomes(db, [{ claimed: input.claimed, result, now: input.now }]);
  return outcome;
}

export type DeliveryStep =
  | DeliveryOutcome
  | { id: string; status: "waiting"; until: string }
  | { id: string; status: "gone"; reason: "finished" | "missing" | "webhook_stopped" };

/**
 * One attempt of one delivery by id (the Inngest path): claimed like the lane claims, or when it is
 * not due yet (or another run holds it, or its webhook is at its cap) the time to come back.
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
