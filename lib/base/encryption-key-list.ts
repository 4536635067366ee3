import { z } from "zod";

/** One key of `ENCRYPTION_KEYS`: its id travels in every value it seals, the key itself never leaves the process. */
export interface EncryptionKey {
  id: string;
  key: Buffer;
}

const idPattern = /^[A-Za-z0-9_-]{1,32}$/;
// Standard or URL-safe base64 of 32 bytes: 43 characters and an optional `=`.
const keyPattern = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * `ENCRYPTION_KEYS`: `id:base64key` entries separated by commas, newest first. Every refusal names
 * the entry by its position or id, never by its key.
 */
export const encryptionKeyList = z.string().transform((value, ctx): EncryptionKey[] => {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const refuse = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  if (entries.length === 0) return refuse("list at least one key as id:base64key");
  const keys: EncryptionKey[] = [];
  for (const [index, entry] of entries.entries()) {
    const separator = entry.indexOf(":");
    const id = separator < 0 ? "" : entry.slice(0, separator);
    const encoded = entry.slice(separator + 1);
    if (!idPattern.test(id)) return refuse(`entry ${index + 1} needs an id of 1 to 32 letters, digits, - or _ before a colon`);
    if (!keyPattern.test(encoded)) return refuse(`key "${id}" is not 32 bytes in base64 (make one with \`openssl rand -base64 32\`)`);
    if (keys.some((key) => key.id === id)) return refuse(`key id "${id}" is listed twice`);
    keys.push({ id, key: Buffer.from(encoded, "base64") });
  }
  return keys;
});
