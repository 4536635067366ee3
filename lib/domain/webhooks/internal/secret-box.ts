import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { authSecret } from "@/lib/base/auth-secret";

/**
 * Webhook secrets at rest: AES-256-GCM with a key derived from AUTH_SECRET (HKDF-SHA256). Signing
 * needs the plain secret, so it cannot be hashed like a key's; a copy of the database alone does not
 * sign. The webhook's id is the associated data: a sealed secret copied to another row does not open.
 * Changing AUTH_SECRET makes the stored secrets unreadable: their webhooks need a rotation.
 */
const version = "v1";
const ivBytes = 12;
const tagBytes = 16;

let derived: { from: string; key: Buffer } | undefined;

function key(): Buffer {
  const secret = authSecret();
  if (derived?.from !== secret) {
    derived = { from: secret, key: Buffer.from(hkdfSync("sha256", secret, "", "listings webhook secrets", 32)) };
  }
  return derived.key;
}

export function sealSecret(webhookId: string, secret: string): string {
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv("aes-256-gcm", key(), iv, { authTagLength: tagBytes });
  cipher.setAAD(Buffer.from(webhookId));
  const encrypted = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `${version}.${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString("base64url")}`;
}

/** The plain secret; throws when the value was sealed for another webhook or with another AUTH_SECRET. */
export function openSecret(webhookId: string, sealed: string): string {
  const [tag, body] = sealed.split(".");
  if (tag !== version || !body) throw new Error(`webhook ${webhookId}: the stored secret has an unknown form`);
  const bytes = Buffer.from(body, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key(), bytes.subarray(0, ivBytes), { authTagLength: tagBytes });
  decipher.setAAD(Buffer.from(webhookId));
  decipher.setAuthTag(bytes.subarray(ivBytes, ivBytes + tagBytes));
  return Buffer.concat([decipher.update(bytes.subarray(ivBytes + tagBytes)), decipher.final()]).toString("utf8");
}
