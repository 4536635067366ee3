import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Transaction } from "@/db";
import { accountTokens } from "@/db/schema";
import { ValidationError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { hashSecret } from "@/lib/base/secret-hash";

export type TokenPurpose = (typeof accountTokens.$inferSelect)["purpose"];

/** How long a mailed link works: a day to confirm an address, an hour to reset a password. */
export const tokenLifetimeMs: Record<TokenPurpose, number> = {
  confirm_email: 24 * 3_600_000,
  reset_password: 3_600_000,
};

/** The link's secret: 32 random bytes, base64url (43 characters, safe in a query string as is). */
const newSecret = (): string => randomBytes(32).toString("base64url");

/** Stores a new single-use token (its hash only) and returns the secret for the mailed link. */
export async function issueToken(tx: Transaction, input: { accountId: string; purpose: TokenPurpose; now: Date }): Promise<string> {
  const secret = newSecret();
  await tx.insert(accountTokens).values({
    id: newId("accountToken"),
    accountId: input.accountId,
    purpose: input.purpose,
    tokenHash: hashSecret(secret),
    expiresAt: new Date(input.now.getTime() + tokenLifetimeMs[input.purpose]),
    createdAt: input.now,
  });
  return secret;
}

/** The shape of a secret we issue; anything else is refused before the database is asked. */
const secretPattern = /^[A-Za-z0-9_-]{43}$/;

/**
 * Uses the token of `purpose` whose secret is `secret` and returns its account, or refuses at
 * `/token`: unknown (never issued, mistyped, or another purpose's), expired, or already used. The
 * row is locked, so two uses of one link at the same moment cannot both pass. Only the holder of
 * the secret learns which of the three it is, which tells the page what to offer.
 */
export async function redeemToken(
  tx: Transaction,
  input: { secret: string; purpose: TokenPurpose; now: Date },
): Promise<{ accountId: string }> {
  const refuse = (reason: "link_unknown" | "link_expired" | "link_used") =>
    new ValidationError([{ pointer: "/token", code: "invalid_value", params: { reason } }]);
  if (!secretPattern.test(input.secret)) throw refuse("link_unknown");
  const [token] = await tx
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, hashSecret(input.secret)), eq(accountTokens.purpose, input.purpose)))
    .for("update");
  if (!token) throw refuse("link_unknown");
  if (token.usedAt) throw refuse("link_used");
  if (token.expiresAt <= input.now) throw refuse("link_expired");
  await consumeTokens(tx, { accountId: token.accountId, purpose: input.purpose, now: input.now });
  return { accountId: token.accountId };
}

/** Marks every unused token of the account for `purpose` used: one link used (or a new password) ends the others. */
export async function consumeTokens(tx: Transaction, input: { accountId: string; purpose: TokenPurpose; now: Date }): Promise<void> {
  await tx
    .update(accountTokens)
    .set({ usedAt: input.now })
    .where(and(eq(accountTokens.accountId, input.accountId), eq(accountTokens.purpose, input.purpose), isNull(accountTokens.usedAt)));
}
