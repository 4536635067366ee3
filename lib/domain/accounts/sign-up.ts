import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import { withTransaction, type PublicActor, type ServiceContext } from "@/lib/base/context";
import type { Locale } from "@/lib/base/i18n";
import { rateLimiter } from "@/lib/infra/rate-limit";
import { newId } from "@/lib/base/ids";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { recordActivity } from "./activity";
import { accountMailRule, emailBucket } from "./internal/limits";
import { portalLink, sendAccountMail } from "./mails";
import { hashPassword, newPassword } from "./internal/password";
import { issueToken, tokenLifetimeMs } from "./internal/tokens";
import { emailAddress } from "./internal/requested-link";

export const signUpInput = z.object({
  email: emailAddress,
  password: newPassword,
  name: z.string().trim().min(1).max(120),
  language: z.enum(["ro", "en"]),
});

/** The same for an address that had an account and one that did not: the answer never tells which. */
export interface SignUpResult {
  email: string;
}

/**
 * Creates an unconfirmed account and mails its confirmation link. When the address has an account
 * already, nothing is created and that address is told someone tried (with links to sign in and to
 * reset the password) instead; the caller gets the same answer either way, and the password is
 * hashed either way so the time taken does not tell either.
 */
export async function signUp({
  ctx,
  input,
}: {
  ctx: ServiceContext<PublicActor>;
  input: z.input<typeof signUpInput>;
}): Promise<SignUpResult> {
  const data = parseOrThrow(signUpInput, input);
  const passwordHash = await hashPassword(data.password);
  const id = newId("account");
  const outcome = await withTransaction(ctx, async ({ db: tx }) => {
    // One statement decides, so two sign-ups with one address at the same moment cannot both create.
    const created = await tx
      .insert(accounts)
      .values({ id, email: data.email, name: data.name, passwordHash, language: data.language, confirmed: false })
      .onConflictDoNothing({ target: accounts.email })
      .returning({ id: accounts.id });
    if (created.length) {
      await recordActivity(tx, { accountId: id, actor: ctx.actor, action: "account.created" });
      const secret = await issueToken(tx, { accountId: id, purpose: "confirm_email", now: ctx.now });
      return { kind: "created" as const, secret };
    }
    const [existing] = await tx
      .select({ name: accounts.name, language: accounts.language })
      .from(accounts)
      .where(eq(accounts.email, data.email));
    return { kind: "existing" as const, name: existing.name, language: existing.language as Locale };
  });
  if (outcome.kind === "created") {
    await sendAccountMail({
      to: data.email,
      locale: data.language,
      key: "confirm_email",
      params: {
        name: data.name,
        link: portalLink("/confirm-email", { token: outcome.secret }),
        hours: tokenLifetimeMs.confirm_email / 3_600_000,
      },
    });
  } else if (!(await rateLimiter().hit(emailBucket(data.email), accountMailRule)).limited) {
    await sendAccountMail({
      to: data.email,
      locale: outcome.language,
      key: "sign_up_attempt",
      params: { name: outcome.name, sign_in_link: portalLink("/login"), reset_link: portalLink("/reset-password") },
    });
  }
  return { email: data.email };
}
