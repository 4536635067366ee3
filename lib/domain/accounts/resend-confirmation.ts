import { z } from "zod";
import type { PublicActor, ServiceContext } from "@/lib/base/context";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { portalLink, sendAccountMail } from "./mails";
import { emailAddress, issueRequestedLink } from "./internal/requested-link";
import { tokenLifetimeMs } from "./internal/tokens";

export const resendConfirmationInput = z.object({
  email: emailAddress,
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
  const issued = await issueRequestedLink(ctx, {
    email: data.email,
    purpose: "confirm_email",
    eligible: (account) => account.active && !account.confirmed,
  });
  if (issued) {
    const { account, secret } = issued;
    await sendAccountMail({
      to: data.email,
      locale: account.language,
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
