import { eq } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { lockOwnWebhook } from "./internal/own-webhook";

/** Deletes one of the account's webhooks with its deliveries (the foreign key cascades); it no longer counts in the five. */
export async function deleteWebhook({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { id: string } }): Promise<{ id: string }> {
  return withTransaction(ctx, async (tx) => {
    const webhook = await lockOwnWebhook(tx, input.id);
    await tx.db.delete(webhooks).where(eq(webhooks.id, webhook.id));
    await recordActivity(tx.db, {
      accountId: webhook.accountId,
      actor: ctx.actor,
      action: "webhook.deleted",
      subjectId: webhook.id,
      details: webhook.url,
    });
    return { id: webhook.id };
  });
}
