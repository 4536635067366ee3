import { createHmac, timingSafeEqual } from "node:crypto";
import { derivedKeys } from "@/lib/base/auth-secret";

/**
 * The token of a pre-signed upload URL: an HMAC-SHA256, with a key derived from AUTH_SECRET (HKDF,
 * its own label), over the upload key, the declared length, the content type and the expiry. The URL
 * carries the key, the expiry and the token; the length and the type are the upload request's own
 * headers, so any of the four that differs from what was signed makes another MAC and is refused.
 * URLs are signed with the current AUTH_SECRET and accepted under AUTH_SECRET_PREVIOUS too, so a
 * rotation does not void the URLs handed out just before it (they live 15 minutes).
 */
export const uploadUrlValidityMs = 15 * 60 * 1000;

const version = "v1";
const macBytes = 32;

export interface UploadTerms {
  key: string;
  /** Bytes the body must have. */
  contentLength: number;
  contentType: string;
  /** Unix time in seconds after which the URL is refused. */
  expires: number;
}

export type UploadCheck = { ok: true } | { ok: false; reason: "malformed" | "invalid_signature" | "expired" };

/** The current secret's MAC key first, then the previous secrets'. */
const macKeys = derivedKeys("listings upload urls");

// A JSON array: no choice of key, type or numbers can make two different sets of terms read the same.
function mac(key: Buffer, terms: UploadTerms): Buffer {
  const message = JSON.stringify([version, terms.key, terms.contentLength, terms.contentType, terms.expires]);
  return createHmac("sha256", key).update(message, "utf8").digest();
}

const wellFormed = (terms: UploadTerms): boolean =>
  typeof terms.key === "string" &&
  terms.key.length > 0 &&
  typeof terms.contentType === "string" &&
  terms.contentType.length > 0 &&
  Number.isSafeInteger(terms.contentLength) &&
  terms.contentLength >= 0 &&
  Number.isSafeInteger(terms.expires) &&
  terms.expires > 0;

export function signUpload(terms: UploadTerms): string {
  if (!wellFormed(terms)) throw new Error("upload terms need a key, a content type, a whole length and a whole expiry in seconds");
  return `${version}.${mac(macKeys()[0], terms).toString("base64url")}`;
}

/** Terms expiring 15 minutes after `nowMs` (rounded up to the second) and their token. */
export function grantUpload(input: { key: string; contentLength: number; contentType: string; nowMs: number }): {
  terms: UploadTerms;
  token: string;
} {
  const terms: UploadTerms = {
    key: input.key,
    contentLength: input.contentLength,
    contentType: input.contentType,
    expires: Math.ceil((input.nowMs + uploadUrlValidityMs) / 1000),
  };
  return { terms, token: signUpload(terms) };
}

/**
 * Whether `token` was made for exactly these terms and they have not expired at `nowMs`. The MAC is
 * compared in constant time; the expiry is read only from signed terms, so a forged expiry is an
 * invalid signature, never a late one.
 */
export function verifyUpload(terms: UploadTerms, token: string, nowMs: number): UploadCheck {
  if (typeof token !== "string" || !wellFormed(terms)) return { ok: false, reason: "malformed" };
  const [tag, body, ...rest] = token.split(".");
  if (tag !== version || body === undefined || rest.length > 0 || !/^[A-Za-z0-9_-]{43}$/.test(body))
    return { ok: false, reason: "malformed" };
  const presented = Buffer.from(body, "base64url");
  if (presented.length !== macBytes || presented.toString("base64url") !== body) return { ok: false, reason: "malformed" };
  if (!macKeys().some((key) => timingSafeEqual(presented, mac(key, terms)))) return { ok: false, reason: "invalid_signature" };
  if (nowMs > terms.expires * 1000) return { ok: false, reason: "expired" };
  return { ok: true };
}
