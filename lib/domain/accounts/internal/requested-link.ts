import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import { withTransaction, type PublicActor, type ServiceContext } from "@/lib/base/context";
import type { Locale } from "@/lib/base/i18n";
import { rateLimiter } from "@/lib/infra/rate-limit";
import { accountMailRule, emailBucket } from "./limits";
import { issueToken, type TokenPurpose } from "./tokens";

/** An e-mail address as accounts store it: lower case, at most 254 characters (RFC 5321). */
export const emailAddress = z
  .email()
  .max(254)
  .transform((e) => e.toLowerCase());

interface LinkAccount {
  id: string;
  name: string;
  language: Locale;
  active: boolean;
  confirmed: boolean;
}

/**
 * A link anyone may ask to be mailed to an address (a password reset, a new confirmation): issued
 * when the address has an account `eligible` for it and the address is within the mails it may be
 * sent on request (`accountMailRule`). Returns the account and the link's secret for the caller to
 * mail, or undefined; the caller answers the same either way.
 */
export async function issueRequestedLink(
  ctx: ServiceContext<PublicActor>,
  input: { email: string; purpose: TokenPurpose; eligible: (account: LinkAccount) => boolean },
): Promise<{ account: LinkAccount; secret: string } | undefined> {
  const [found] = await ctx.db
    .select({ id: accounts.id, name: accounts.name, language: accounts.language, active: accounts.active, confirmed: accounts.confirmed })
    .from(accounts)
    .where(eq(accounts.email, input.email));
  const account = found && { ...found, language: found.language as Locale };
  if (!account || !input.eligible(account) || (await rateLimiter().hit(emailBucket(input.email), accountMailRule)).limited)
    return undefined;
  const secret = await withTransaction(ctx, ({ db: tx }) =>
    issueToken(tx, { accountId: account.id, purpose: input.purpose, now: ctx.now }),
  );
  return { account, secret };
}
