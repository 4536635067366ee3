import { createHmac, timingSafeEqual } from "node:crypto";
import type { SessionAccount } from "@/lib/domain/accounts/session-account";
import { authSecrets } from "@/lib/base/auth-secret";

/**
 * A form token bound to the signed-in account and to what the form is about (the consent request),
 * for forms whose post grants something. Next.js already refuses a server action posted from another
 * origin; this token also makes the post unforgeable for anyone who could not read the page itself,
 * and a form copied from one request cannot be replayed for another app, address or state. Made with
 * the current auth secret; a form rendered before a rotation still posts under the previous one.
 */
export function formToken(account: Pick<SessionAccount, "id">, purpose: string, ...subject: string[]): string {
  return tokenWith(authSecrets()[0], [account.id, purpose, ...subject]);
}

export function formTokenMatches(token: unknown, account: Pick<SessionAccount, "id">, purpose: string, ...subject: string[]): boolean {
  if (typeof token !== "string") return false;
  const given = Buffer.from(token);
  return authSecrets().some((secret) => {
    const expected = Buffer.from(tokenWith(secret, [account.id, purpose, ...subject]));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const tokenWith = (secret: string, bound: string[]): string =>
  createHmac("sha256", secret).update(JSON.stringify(bound)).digest("base64url");
