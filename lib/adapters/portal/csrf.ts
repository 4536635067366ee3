import { createHmac, timingSafeEqual } from "node:crypto";
import type { SessionAccount } from "@/lib/domain/accounts/session-account";
import { authSecrets } from "@/lib/base/auth-secret";

/**
 * What a form's token is bound to besides the signed-in account: the form's purpose and what it acts
 * on (`subject`, read from the form's fields: a listing's code, a consent request). The page issues
 * the token with it and `portalAction` checks the post against the same binding, so they cannot drift.
 */
export interface FormTokenBinding<About> {
  purpose: string;
  subject: (about: About) => string[];
}

/**
 * A form token bound to the signed-in account and to what the form is about. Next.js already refuses
 * a server action posted from another origin; this token also makes the post unforgeable for anyone
 * who could not read the page itself, and a form copied from one request cannot be replayed for
 * another listing, app, address or state. Made with the current auth secret; a form rendered before a
 * rotation still posts under the previous one.
 */
export function formToken<About>(account: Pick<SessionAccount, "id">, binding: FormTokenBinding<About>, about: About): string {
  return tokenWith(authSecrets()[0], boundValues(account, binding, about));
}

export function formTokenMatches<About>(
  token: unknown,
  account: Pick<SessionAccount, "id">,
  binding: FormTokenBinding<About>,
  about: About,
): boolean {
  if (typeof token !== "string") return false;
  const given = Buffer.from(token);
  const bound = boundValues(account, binding, about);
  return authSecrets().some((secret) => {
    const expected = Buffer.from(tokenWith(secret, bound));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const boundValues = <About>(account: Pick<SessionAccount, "id">, binding: FormTokenBinding<About>, about: About): string[] => [
  account.id,
  binding.purpose,
  ...binding.subject(about),
];

const tokenWith = (secret: string, bound: string[]): string =>
  createHmac("sha256", secret).update(JSON.stringify(bound)).digest("base64url");
