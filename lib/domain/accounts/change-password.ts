import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { AppError, ValidationError } from "@/lib/base/errors";
import type { Locale } from "@/lib/base/i18n";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { recordActivity } from "./activity";
import { rateLimiter } from "@/lib/infra/rate-limit";
import { emailBucket, signInRules } from "./internal/limits";
import { portalLink, sendAccountMail } from "./mails";
import { hashPassword, newPassword, passwordMatches } from "./internal/password";
import { consumeTokens } from "./internal/tokens";

export const changePasswordInput = z.object({ current_password: z.string().max(200), new_password: newPassword });

/**
 * The signed-in account changes its password, proving it knows the current one. The session
 * generation moves on, which ends every portal session; the caller's session takes the returned
 * generation to stay signed in. Pending reset links die with the old password.
 */
export async function changePassword({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: z.input<typeof changePasswordInput>;
}): Promise<{ sessionGeneration: number }> {
  const data = parseOrThrow(changePasswordInput, input);
  const accountId = ctx.actor.accountId;
  const [account] = await ctx.db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account?.active) throw new AppError("unauthenticated");
  // Guesses of the current password count with the account's sign-in attempts: a borrowed session must not open an unlimited oracle.
  const attempt = await rateLimiter().hit(emailBucket(account.email), signInRules.account);
  if (attempt.limited) throw new AppError("too_many_requests", { reason: "password_attempts", retry_after: attempt.resetSeconds });
  if (!(await passwordMatches(account.passwordHash, data.current_password)))
    throw new ValidationError([{ pointer: "/current_password", code: "invalid_value", params: { reason: "wrong_password" } }]);
  const passwordHash = await hashPassword(data.new_password);
  const sessionGeneration = await withTransaction(ctx, async ({ db: tx }) => {
    const [updated] = await tx
      .update(accounts)
      .set({ passwordHash, sessionGeneration: sql`${accounts.sessionGeneration} + 1` })
      .where(eq(accounts.id, accountId))
      .returning({ sessionGeneration: accounts.sessionGeneration });
    await consumeTokens(tx, { accountId, purpose: "reset_password", now: ctx.now });
    await recordActivity(tx, { accountId, actor: ctx.actor, action: "password.changed" });
    return updated.sessionGeneration;
  });
  await sendAccountMail({
    to: account.email,
    locale: account.language as Locale,
    key: "password_changed",
    params: { name: account.name, reset_link: portalLink("/reset-password") },
  });
  return { sessionGeneration };
}
