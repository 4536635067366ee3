import { eq } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { lockOwnWebhook } from "./internal/own-webhook";
import { webhookView, type WebhookView } from "./internal/view";

/**
 * The owner stops a webhook: events recorded from now on make no deliveries to it. Stopping a
 * stopped webhook changes nothing (its reason stays, `gone` or `failing` included).
 */
export async function stopWebhook({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { id: string } }): Promise<WebhookView> {
  return withTransaction(ctx, async (tx) => {
    const webhook = await lockOwnWebhook(tx, input.id);
    if (!webhook.active) return webhookView(webhook);
    const [row] = await tx.db
      .update(webhooks)
      .set({ active: false, stoppedReason: "owner", stoppedAt: ctx.now })
      .where(eq(webhooks.id, webhook.id))
      .returning();
    await recordActivity(tx.db, {
      accountId: webhook.accountId,
      actor: ctx.actor,
      action: "webhook.stopped",
      subjectId: webhook.id,
      details: webhook.url,
    });
    return webhookView(row);
  });
}
