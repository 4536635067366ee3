import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import { withTransaction, type PublicActor, type ServiceContext } from "@/lib/base/context";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { recordActivity } from "./activity";
import { redeemToken } from "./internal/tokens";

export const confirmEmailInput = z.object({ token: z.string().max(200) });

/**
 * Confirms the address of the account the link was mailed to (`/confirm-email?token=…`, 24 hours,
 * once). A link that is wrong, expired or used is a validation error at `/token` whose reason says which.
 */
export async function confirmEmail({
  ctx,
  input,
}: {
  ctx: ServiceContext<PublicActor>;
  input: z.input<typeof confirmEmailInput>;
}): Promise<{ email: string }> {
  const data = parseOrThrow(confirmEmailInput, input);
  return withTransaction(ctx, async ({ db: tx }) => {
    const { accountId } = await redeemToken(tx, { secret: data.token, purpose: "confirm_email", now: ctx.now });
    const [account] = await tx
      .update(accounts)
      .set({ confirmed: true })
      .where(eq(accounts.id, accountId))
      .returning({ email: accounts.email });
    await recordActivity(tx, { accountId, actor: ctx.actor, action: "account.confirmed" });
    return { email: account.email };
  });
}
