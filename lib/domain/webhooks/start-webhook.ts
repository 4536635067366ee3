import { eq } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { lockOwnWebhook } from "./internal/own-webhook";
import { webhookView, type WebhookView } from "./internal/view";

/**
 * The owner starts a stopped webhook, whatever stopped it (the owner, a `410 Gone`, failing
 * deliveries): events recorded from now on reach it again. Starting an active one changes nothing.
 */
export async function startWebhook({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { id: string } }): Promise<WebhookView> {
  return withTransaction(ctx, async (tx) => {
    const webhook = await lockOwnWebhook(tx, input.id);
    if (webhook.active) return webhookView(webhook);
    const [row] = await tx.db
      .update(webhooks)
      .set({ active: true, stoppedReason: null, stoppedAt: null })
      .where(eq(webhooks.id, webhook.id))
      .returning();
    await recordActivity(tx.db, {
      accountId: webhook.accountId,
      actor: ctx.actor,
      action: "webhook.started",
      subjectId: webhook.id,
      details: webhook.url,
    });
    return webhookView(row);
  });
}
