import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { oauthClients, webhooks } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { publicWebhookUrl, webhookFieldsInput } from "./fields";
import { insertWebhook } from "./internal/insert-webhook";
import { webhookView, type WebhookView } from "./internal/view";

export const setAppWebhookInput = webhookFieldsInput.extend({ client_id: z.string().min(1) });

/**
 * The webhook of one of the account's integrator apps (one per app): it receives the events of every
 * account connected to the app, each delivery with its `connection`. The first call creates it and
 * shows its secret once (it counts in the owner's five webhooks); later calls change its address and
 * event types and keep its secret and state (`secret` is then null). Another account's app is `not_found`.
 */
export async function setAppWebhook({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: z.input<typeof setAppWebhookInput>;
}): Promise<WebhookView & { secret: string | null }> {
  const { client_id: clientId, ...fields } = parseOrThrow(setAppWebhookInput, input);
  const url = await publicWebhookUrl(fields.url);
  return withTransaction(ctx, async (tx) => {
    const [client] = await tx.db
      .select({ id: oauthClients.id })
      .from(oauthClients)
      .where(and(eq(oauthClients.id, clientId), eq(oauthClients.accountId, ctx.actor.accountId)))
      .for("update");
    if (!client) throw notFound();
    const [existing] = await tx.db.select().from(webhooks).where(eq(webhooks.clientId, client.id)).for("update");
    if (!existing) return insertWebhook(tx, { ...fields, url, accountId: ctx.actor.accountId, clientId: client.id });
    const [row] = await tx.db.update(webhooks).set({ url, eventTypes: fields.events }).where(eq(webhooks.id, existing.id)).returning();
    await recordActivity(tx.db, {
      accountId: existing.accountId,
      actor: ctx.actor,
      action: "webhook.updated",
      subjectId: existing.id,
      details: url,
    });
    return { ...webhookView(row), secret: null };
  });
}
