import { eq } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { lockOwnWebhook } from "./internal/own-webhook";
import { sealSecret } from "@/lib/base/secret-box";
import { newWebhookSecret } from "./signature";

/**
 * A new secret for one of the account's webhooks, shown once. Only one secret is stored, so the old
 * one stops signing at once: every attempt from the commit on is signed with the new one.
 */
export async function rotateWebhookSecret({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { id: string };
}): Promise<{ id: string; secret: string; secret_rotated_at: Date }> {
  return withTransaction(ctx, async (tx) => {
    const webhook = await lockOwnWebhook(tx, input.id);
    const secret = newWebhookSecret();
    await tx.db
      .update(webhooks)
      .set({ secretSealed: sealSecret(webhook.id, secret), secretRotatedAt: ctx.now })
      .where(eq(webhooks.id, webhook.id));
    await recordActivity(tx.db, {
      accountId: webhook.accountId,
      actor: ctx.actor,
      action: "webhook.secret_rotated",
      subjectId: webhook.id,
      details: webhook.url,
    });
    return { id: webhook.id, secret, secret_rotated_at: ctx.now };
  });
}
