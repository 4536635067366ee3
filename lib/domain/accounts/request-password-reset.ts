import { z } from "zod";
import type { PublicActor, ServiceContext } from "@/lib/base/context";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { portalLink, sendAccountMail } from "./mails";
import { emailAddress, issueRequestedLink } from "./internal/requested-link";
import { tokenLifetimeMs } from "./internal/tokens";

export const requestPasswordResetInput = z.object({
  email: emailAddress,
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
  const issued = await issueRequestedLink(ctx, { email: data.email, purpose: "reset_password", eligible: (account) => account.active });
  if (issued) {
    const { account, secret } = issued;
    await sendAccountMail({
      to: data.email,
      locale: account.language,
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
