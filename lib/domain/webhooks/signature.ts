import { createHmac, randomBytes } from "node:crypto";

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
