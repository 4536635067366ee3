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

export const resendConfirmationInput = z.object({
  email: z
    .email()
    .max(254)
    .transform((e) => e.toLowerCase()),
});

/**
 * Mails a new confirmation link (the sign-in page offers it after `email_unconfirmed`) when the
 * address has an active, unconfirmed account. The answer is the same whatever the address; the mail
 * counts against the 5 an hour one address can be sent on request.
 */
export async function resendConfirmation({
  ctx,
  input,
}: {
  ctx: ServiceContext<PublicActor>;
  input: z.input<typeof resendConfirmationInput>;
}): Promise<{ email: string }> {
  const data = parseOrThrow(resendConfirmationInput, input);
  const [account] = await ctx.db
    .select({ id: accounts.id, name: accounts.name, language: accounts.language, active: accounts.active, confirmed: accounts.confirmed })
    .from(accounts)
    .where(eq(accounts.email, data.email));
  if (account?.active && !account.confirmed && !(await rateLimiter().hit(emailBucket(data.email), accountMailRule)).limited) {
    const secret = await withTransaction(ctx, ({ db: tx }) =>
      issueToken(tx, { accountId: account.id, purpose: "confirm_email", now: ctx.now }),
    );
    await sendAccountMail({
      to: data.email,
      locale: account.language as Locale,
      key: "confirm_email",
      params: {
        name: account.name,
        link: portalLink("/confirm-email", { token: secret }),
        hours: tokenLifetimeMs.confirm_email / 3_600_000,
      },
    });
  }
  return { email: data.email };
}
