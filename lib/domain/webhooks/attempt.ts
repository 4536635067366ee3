import { OutboundError, safeRequest, type OutboundFailure } from "@/lib/infra/net/safe-request";
import { signWebhook } from "@/lib/domain/webhooks/signature";

/**
 * One delivery attempt of one event to one webhook: both job engines call this, and
 * keep its result as the attempt's state. It never throws for anything the receiver or the network
 * does; those are failures with a stable reason.
 */

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
export const RECEIVER_TIMEOUT_MS = 10_000;
/** Enough of an answer to show in the delivery log. */
export const RESPONSE_EXCERPT_BYTES = 2048;

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
    const error = statusFailure(response.status);
    return {
      ok: error === null,
      status: response.status,
      durationMs: response.durationMs,
      error,
      responseExcerpt: new TextDecoder().decode(response.body),
      request: { headers },
    };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return { ok: false, status: null, durationMs: error.durationMs, error: error.reason, responseExcerpt: null, request: { headers } };
  }
}

/** A 2xx is a delivery; a redirect is a failure too, and never followed (its target was never checked). */
function statusFailure(status: number): AttemptFailure | null {
  if (status >= 200 && status < 300) return null;
  return status >= 300 && status < 400 ? "redirect_not_followed" : "status_not_2xx";
}
