import { createHmac, timingSafeEqual } from "node:crypto";
import type { SessionAccount } from "@/lib/domain/accounts/session-account";
import { authSecret } from "@/lib/base/auth-secret";

/**
 * A form token bound to the signed-in account and to what the form is about (the consent request),
 * for forms whose post grants something. Next.js already refuses a server action posted from another
 * origin; this token also makes the post unforgeable for anyone who could not read the page itself,
 * and a form copied from one request cannot be replayed for another app, address or state.
 */
export function formToken(account: Pick<SessionAccount, "id">, purpose: string, ...subject: string[]): string {
  return createHmac("sha256", authSecret())
    .update(JSON.stringify([account.id, purpose, ...subject]))
    .digest("base64url");
}

export function formTokenMatches(token: unknown, account: Pick<SessionAccount, "id">, purpose: string, ...subject: string[]): boolean {
  if (typeof token !== "string") return false;
  const expected = Buffer.from(formToken(account, purpose, ...subject));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
