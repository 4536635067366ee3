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
 * with each `v1,` entry, and a timestamp within 5 minutes of this machine's clock. The HMAC covers
 * the payload's exact bytes: a byte order mark or a re-encoding the sender did not sign fails. Answers the parsed
 * event; throws `WebhookVerificationError` for a missing header, a wrong signature or a timestamp too
 * old or too new. Answer 2xx quickly and deduplicate by the event's `id` (delivery is at least once).
 */
export function verifyWebhook({ payload, headers, secret }: VerifyWebhookInput): WebhookEvent {
  const body = typeof payload === "string" ? payload : exactText(payload);
  new Webhook(secret).verify(body, plainHeaders(headers), { jsonParse: false });
  // RFC 8259 §8.1 lets a parser ignore a byte order mark; the signature above covered it.
  return JSON.parse(body.startsWith(byteOrderMark) ? body.slice(1) : body) as WebhookEvent;
}

const byteOrderMark = "\uFEFF";

/**
 * The bytes as a string that encodes back to exactly them, since the library signs the string's UTF-8:
 * a leading byte order mark is kept (a default `TextDecoder` drops it, so a body with one would pass
 * as the body without), and bytes that are not UTF-8 are refused (a default decoder would replace
 * them with U+FFFD, which encodes to other bytes).
 */
function exactText(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { ignoreBOM: true, fatal: true }).decode(bytes);
  } catch {
    throw new WebhookVerificationError("The body is not UTF-8, so it is not the signed one");
  }
}
