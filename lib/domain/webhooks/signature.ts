import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Standard Webhooks signatures: what receivers verify, with any of its libraries. */

const secretPrefix = "whsec_";

/** A new signing secret: 32 random bytes, base64, behind the `whsec_` the receivers' libraries expect. */
export function newWebhookSecret(): string {
  return `${secretPrefix}${randomBytes(32).toString("base64")}`;
}

export interface WebhookSignatureInput {
  secret: string;
  /** The event id, sent as `webhook-id`. */
  id: string;
  /** Unix seconds, sent as `webhook-timestamp`. */
  timestamp: number;
  /** The exact bytes sent as the body: the signature covers them, not a re-serialisation. */
  body: string;
}

/** The `webhook-signature` header: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`. */
export function signWebhook({ secret, id, timestamp, body }: WebhookSignatureInput): string {
  if (!secret.startsWith(secretPrefix)) throw new Error("a webhook secret starts with whsec_");
  if (!Number.isSafeInteger(timestamp)) throw new Error("a webhook timestamp is whole Unix seconds");
  const key = Buffer.from(secret.slice(secretPrefix.length), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64");
  return `v1,${signature}`;
}

/** How far a delivery's `webhook-timestamp` may be from the receiver's clock, as Standard Webhooks' libraries allow. */
export const webhookToleranceSeconds = 5 * 60;

export type WebhookVerification = { ok: true } | { ok: false; reason: "missing_headers" | "timestamp_out_of_range" | "signature_mismatch" };

/**
 * What a receiver checks (Standard Webhooks): the three headers are there, the timestamp is within
 * five minutes of `nowSeconds` (an old delivery replayed is refused), and one of the space-separated
 * `v1,` signatures is the HMAC of `id.timestamp.body` under one of `secrets` (several while a secret
 * rotates), compared in constant time. The sandbox's receiver page uses it.
 */
export function verifyWebhook({
  secrets,
  headers,
  body,
  nowSeconds,
}: {
  secrets: readonly string[];
  headers: { id: string | null; timestamp: string | null; signature: string | null };
  body: string;
  nowSeconds: number;
}): WebhookVerification & { secret?: string } {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return { ok: false, reason: "missing_headers" };
  if (!/^[0-9]{1,12}$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > webhookToleranceSeconds) {
    return { ok: false, reason: "timestamp_out_of_range" };
  }
  const sent = signature
    .split(" ")
    .filter((part) => part.startsWith("v1,"))
    .map((part) => Buffer.from(part.slice(3), "base64"));
  for (const secret of secrets) {
    if (!secret.startsWith(secretPrefix)) continue;
    const expected = Buffer.from(signWebhook({ secret, id, timestamp: Number(timestamp), body }).slice(3), "base64");
    if (sent.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected))) return { ok: true, secret };
  }
  return { ok: false, reason: "signature_mismatch" };
}
