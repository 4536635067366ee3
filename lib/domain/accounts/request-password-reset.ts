import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import { withTransaction, type PublicActor, type ServiceContext } from "@/lib/platform/context";
import type { Locale } from "@/lib/platform/i18n";
import { rateLimiter } from "@/lib/platform/http/rate-limit";
import { parseOrThrow } from "@/lib/platform/validation/zod";
import { accountMailRule, emailBucket } from "./internal/limits";
import { portalLink, sendAccountMail } from "./internal/mails";
import { issueToken, tokenLifetimeMs } from "./internal/tokens";

export const requestPasswordResetInput = z.object({
  email: z
    .email()
    .max(254)
    .transform((e) => e.toLowerCase()),
});

/**
 * Mails a password reset link (`/reset-password?token=…`, 1 hour, once) when the address has an
 * active account. The answer is the same whether it has one or not; at most 5 such mails an hour
 * go to one address (more requests get the same answer and no mail).
 */
export async function requestPasswordReset({
  ctx,
  input,
}: {
  ctx: ServiceContext<PublicActor>;
  input: z.input<typeof requestPasswordResetInput>;
}): Promise<{ email: string }> {
  const data = parseOrThrow(requestPasswordResetInput, input);
  const [account] = await ctx.db
    .select({ id: accounts.id, name: accounts.name, language: accounts.language, active: accounts.active })
    .from(accounts)
    .where(eq(accounts.email, data.email));
  if (account?.active && !(await rateLimiter().hit(emailBucket(data.email), accountMailRule)).limited) {
    const secret = await withTransaction(ctx, ({ db: tx }) =>
      issueToken(tx, { accountId: account.id, purpose: "reset_password", now: ctx.now }),
    );
    await sendAccountMail({
      to: data.email,
      locale: account.language as Locale,
      key: "reset_password",
      params: {
        name: account.name,
        link: portalLink("/reset-password", { token: secret }),
        minutes: tokenLifetimeMs.reset_password / 60_000,
      },
    });
  }
  return { email: data.email };
}
