import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import { withTransaction, type PublicActor, type ServiceContext } from "@/lib/base/context";
import type { Locale } from "@/lib/base/i18n";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { recordActivity } from "./activity";
import { portalLink, sendAccountMail } from "./mails";
import { hashPassword, newPassword } from "./internal/password";
import { redeemToken } from "./internal/tokens";

export const resetPasswordInput = z.object({ token: z.string().max(200), password: newPassword });

/**
 * Sets a new password with a reset link's token: every reset link of the account is used up, the
 * session generation moves on (every portal session ends), and the address counts as confirmed (the
 * link proved the holder reads its mail). The account is told by mail.
 */
export async function resetPassword({
  ctx,
  input,
}: {
  ctx: ServiceContext<PublicActor>;
  input: z.input<typeof resetPasswordInput>;
}): Promise<{ email: string }> {
  const data = parseOrThrow(resetPasswordInput, input);
  const passwordHash = await hashPassword(data.password);
  const account = await withTransaction(ctx, async ({ db: tx }) => {
    const { accountId } = await redeemToken(tx, { secret: data.token, purpose: "reset_password", now: ctx.now });
    const [updated] = await tx
      .update(accounts)
      .set({ passwordHash, confirmed: true, sessionGeneration: sql`${accounts.sessionGeneration} + 1` })
      .where(eq(accounts.id, accountId))
      .returning({ email: accounts.email, name: accounts.name, language: accounts.language });
    await recordActivity(tx, { accountId, actor: ctx.actor, action: "password.reset" });
    return updated;
  });
  await sendAccountMail({
    to: account.email,
    locale: account.language as Locale,
    key: "password_changed",
    params: { name: account.name, reset_link: portalLink("/reset-password") },
  });
  return { email: account.email };
}
