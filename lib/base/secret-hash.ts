import { createHash, timingSafeEqual } from "node:crypto";

/**
 * How every secret we hand out is stored: its SHA-256 in hex, never the secret (API keys, OAuth
 * client secrets and codes, the single-use links of mails). The secrets are long random strings,
 * so a plain digest is enough; a slow hash is for passwords.
 */
export const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex");

/** Whether `secret` is the one `storedHash` was made from, compared in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}
