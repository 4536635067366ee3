import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { derivedKeys } from "./auth-secret";
import { config } from "./config";

/**
 * Secrets stored reversibly (webhook signing secrets: signing needs the plain secret, so it cannot be
 * hashed like a key's): AES-256-GCM, so a copy of the database alone does not sign. Two forms:
 *
 * - `v2.<keyId>.<base64url(iv|tag|ciphertext)>`, under the key of `ENCRYPTION_KEYS` with that id: the
 *   newest key seals, every listed one opens, so a key is retired by re-encrypting (`secrets:reencrypt`)
 *   before it is removed from the list.
 * - `v1.<base64url(iv|tag|ciphertext)>`, under a key derived (HKDF-SHA256) from the auth secret: what
 *   a sandbox without `ENCRYPTION_KEYS` seals with, and what every deployment sealed with before the
 *   keys had their own variable. It opens under `AUTH_SECRET` or any of `AUTH_SECRET_PREVIOUS`.
 *
 * `boundTo` (the owning row's id) is the associated data: a sealed value copied to another row does not open.
 */
const ivBytes = 12;
const tagBytes = 16;

/** A stored secret that does not open; `keyId` names the key it needs (`v1`: one derived from an auth secret), never the key. */
export class UnreadableSecretError extends Error {
  constructor(
    readonly keyId: string,
    detail: string,
  ) {
    super(detail);
    this.name = "UnreadableSecretError";
  }
}

export const legacyKeyId = "v1";

const legacyKeys = derivedKeys("listings webhook secrets");

function sealWith(key: Buffer, boundTo: string, plain: string): string {
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: tagBytes });
  cipher.setAAD(Buffer.from(boundTo));
  const encrypted = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString("base64url");
}

function openWith(key: Buffer, boundTo: string, payload: string): string | undefined {
  const bytes = Buffer.from(payload, "base64url");
  if (bytes.length < ivBytes + tagBytes) return undefined;
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, ivBytes), { authTagLength: tagBytes });
  decipher.setAAD(Buffer.from(boundTo));
  decipher.setAuthTag(bytes.subarray(ivBytes, ivBytes + tagBytes));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(ivBytes + tagBytes)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

/** Seals under the newest key of `ENCRYPTION_KEYS`; without it (a sandbox), under the current auth secret's key. */
export function sealSecret(boundTo: string, plain: string): string {
  const c = config();
  const newest = c.ENCRYPTION_KEYS?.[0];
  if (newest) return `v2.${newest.id}.${sealWith(newest.key, boundTo, plain)}`;
  // Start-up refuses production without the keys; this stops the CLI and scripts from sealing without them too.
  if (c.APP_ENV === "production") throw new Error("ENCRYPTION_KEYS is required with APP_ENV=production");
  return `${legacyKeyId}.${sealWith(legacyKeys()[0], boundTo, plain)}`;
}

/**
 * The plain secret, and whether it is sealed the way `sealSecret` would seal it now (re-encryption
 * leaves those alone). Throws `UnreadableSecretError` naming the key it needs.
 */
export function openSecretWithAge(boundTo: string, sealed: string): { plain: string; current: boolean } {
  const parts = sealed.split(".");
  const keys = config().ENCRYPTION_KEYS;
  if (parts.length === 3 && parts[0] === "v2") {
    const [, keyId, payload] = parts;
    const found = keys?.find((key) => key.id === keyId);
    if (!found) {
      throw new UnreadableSecretError(keyId, `${boundTo}: sealed with encryption key "${keyId}", which ENCRYPTION_KEYS does not list`);
    }
    const plain = openWith(found.key, boundTo, payload);
    if (plain === undefined) {
      throw new UnreadableSecretError(keyId, `${boundTo}: does not open with encryption key "${keyId}" (changed key, or altered value)`);
    }
    return { plain, current: found === keys?.[0] };
  }
  if (parts.length === 2 && parts[0] === legacyKeyId) {
    const candidates = legacyKeys();
    for (const [index, key] of candidates.entries()) {
      const plain = openWith(key, boundTo, parts[1]);
      if (plain !== undefined) return { plain, current: !keys?.length && index === 0 };
    }
    throw new UnreadableSecretError(
      legacyKeyId,
      `${boundTo}: sealed with a key derived from an auth secret that neither AUTH_SECRET nor AUTH_SECRET_PREVIOUS holds`,
    );
  }
  throw new UnreadableSecretError("unknown", `${boundTo}: the stored secret has an unknown form`);
}

export const openSecret = (boundTo: string, sealed: string): string => openSecretWithAge(boundTo, sealed).plain;
