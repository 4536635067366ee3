import { createHash, randomBytes } from "node:crypto";
import { randomToken } from "@/lib/base/ids";

const secretAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `svcs_` and 40 random characters: shown once, only its SHA-256 is stored (as for keys). */
export const newClientSecret = (): string => `svcs_${randomToken(40, secretAlphabet)}`;

/** An authorization code: 32 random bytes, base64url (43 characters); only its SHA-256 is stored. */
export const newAuthorizationCode = (): string => randomBytes(32).toString("base64url");

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const codeVerifierPattern = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The S256 challenge of a verifier has exactly this form: base64url of 32 bytes, no padding. */
export const codeChallengePattern = /^[A-Za-z0-9_-]{43}$/;

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
export const s256 = (verifier: string): string => createHash("sha256").update(verifier, "ascii").digest("base64url");
