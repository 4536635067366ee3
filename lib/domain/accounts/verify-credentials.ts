import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts, agencyMembers } from "@/db/schema";
import type { AgencyMembership, PublicActor, ServiceContext } from "@/lib/base/context";
import type { Locale } from "@/lib/base/i18n";
import { rateLimiter } from "@/lib/infra/rate-limit";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { emailBucket, normalEmail, signInRules } from "./internal/limits";
import { passwordMatches } from "./internal/password";

export const verifyCredentialsInput = z.object({
  email: z.string().max(254),
  password: z.string().max(200),
  /** The client's address (lib/adapters/http client address), for the per-address limit. */
  address: z.string().min(1).max(100),
});

/** What a portal session is built from; `sessionGeneration` goes into the session and must still match later. */
export interface SignedInAccount {
  id: string;
  email: string;
  name: string;
  language: Locale;
  sessionGeneration: number;
  agency: AgencyMembership | null;
}

/**
 * A refusal. `invalid_credentials` is the one answer for an unknown address and a wrong password.
 * `account_inactive` and `email_unconfirmed` are said only to whoever gave the right password, so
 * they tell nothing to someone guessing. `rate_limited` comes before any check.
 */
export type SignInRefusal =
  | { ok: false; reason: "invalid_credentials" | "account_inactive" | "email_unconfirmed" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

export type VerifyCredentialsResult = { ok: true; account: SignedInAccount } | SignInRefusal;

/**
 * Checks an e-mail and password for the portal's sign-in. Every attempt counts against the
 * address's account and the client's address (`signInRules`); over either limit the attempt is
 * refused without looking at the password. An unknown address costs the same argon2 verification as
 * a known one. Only active accounts with a confirmed address sign in: only confirmed accounts may
 * create keys, and an unconfirmed account may have been made with someone else's address.
 */
export async function verifyCredentials({
  ctx,
  input,
}: {
  ctx: ServiceContext<PublicActor>;
  input: z.input<typeof verifyCredentialsInput>;
}): Promise<VerifyCredentialsResult> {
  const data = parseOrThrow(verifyCredentialsInput, input);
  const email = normalEmail(data.email);
  const limiter = rateLimiter();
  const decisions = await Promise.all([
    limiter.hit(emailBucket(email), signInRules.account),
    limiter.hit(data.address, signInRules.address),
  ]);
  const limited = decisions.filter((decision) => decision.limited);
  if (limited.length) return { ok: false, reason: "rate_limited", retryAfterSeconds: Math.max(...limited.map((d) => d.resetSeconds)) };

  const [row] = await ctx.db
    .select({ account: accounts, agencyId: agencyMembers.agencyId, role: agencyMembers.role })
    .from(accounts)
    .leftJoin(agencyMembers, eq(agencyMembers.accountId, accounts.id))
    .where(eq(accounts.email, email));
  if (!(await passwordMatches(row?.account.passwordHash, data.password))) return { ok: false, reason: "invalid_credentials" };
  const { account } = row;
  if (!account.active) return { ok: false, reason: "account_inactive" };
  if (!account.confirmed) return { ok: false, reason: "email_unconfirmed" };
  return {
    ok: true,
    account: {
      id: account.id,
      email: account.email,
      name: account.name,
      language: account.language as Locale,
      sessionGeneration: account.sessionGeneration,
      agency: row.agencyId && row.role ? { id: row.agencyId, role: row.role } : null,
    },
  };
}
