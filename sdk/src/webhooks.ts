import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { WebhookEvent } from "./types.js";

export { WebhookVerificationError };

export interface VerifyWebhookInput {
  /** The raw body exactly as received, before any JSON parsing: the signature covers these bytes. */
  payload: string | Uint8Array;
  /** The request's headers (a `Headers` or a Node.js headers object): `webhook-id`, `webhook-timestamp`, `webhook-signature`. */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The webhook's secret, `whsec_…`, shown once when it was made or rotated. */
  secret: string;
}

function plainHeaders(headers: VerifyWebhookInput["headers"]): Record<string, string> {
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(" ") : value;
  }
  return plain;
}

/**
 * Checks a delivery as the spec signs it (Standard Webhooks, with its reference library): the
 * HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the secret, compared in constant time
 * with each `v1,` entry, and a timestamp within 5 minutes of this machine's clock. Answers the parsed
 * event; throws `WebhookVerificationError` for a missing header, a wrong signature or a timestamp too
 * old or too new. Answer 2xx quickly and deduplicate by the event's `id` (delivery is at least once).
 */
export function verifyWebhook({ payload, headers, secret }: VerifyWebhookInput): WebhookEvent {
  const body = typeof payload === "string" ? payload : new TextDecoder().decode(payload);
  return new Webhook(secret).verify(body, plainHeaders(headers)) as WebhookEvent;
}
