import { hkdfSync, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "@/lib/base/config";

/**
 * The secret portal sessions, form tokens and upload URLs are sealed with (and, where `ENCRYPTION_KEYS`
 * is not set, webhook secrets): `AUTH_SECRET`, required in production (start-up refuses without it). A sandbox
 * without it makes one on first use and keeps it beside the embedded database, so sessions and
 * webhook secrets survive a restart; instances sharing a PostgreSQL sandbox set `AUTH_SECRET`.
 */
export function authSecret(): string {
  const c = config();
  if (c.AUTH_SECRET) return c.AUTH_SECRET;
  if (c.APP_ENV === "production") throw new Error("AUTH_SECRET is required with APP_ENV=production");
  const file = path.join(path.dirname(c.dataDir), "auth-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    // `wx`: when two processes start together, the second one fails here and reads the first one's.
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      return readFileSync(file, "utf8").trim();
    }
  }
}

/**
 * The current secret first, then those it replaced (`AUTH_SECRET_PREVIOUS`): new tokens are made with
 * the first, tokens made before a rotation are accepted under any.
 */
export function authSecrets(): string[] {
  return [authSecret(), ...(config().AUTH_SECRET_PREVIOUS ?? [])];
}

/**
 * The keys of one use (`label`, HKDF-SHA256's info) derived from each auth secret, the current one's
 * first: derived on the first call and again only when the secrets change (a rotation, a test), not
 * on every token made or checked.
 */
export function derivedKeys(label: string): () => Buffer[] {
  let derived: { from: string; keys: Buffer[] } | undefined;
  return () => {
    const secrets = authSecrets();
    const from = JSON.stringify(secrets);
    if (derived?.from !== from) derived = { from, keys: secrets.map((secret) => Buffer.from(hkdfSync("sha256", secret, "", label, 32))) };
    return derived.keys;
  };
}
