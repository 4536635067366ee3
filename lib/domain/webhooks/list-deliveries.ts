import { and, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import { events, webhookDeliveries, webhooks } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { idPattern } from "@/lib/base/ids";
import { decodeKeyset, olderThan, toKeysetPage, type KeysetPage } from "@/lib/base/cursor";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { deliveryColumns, deliveryView, eventOfDelivery, shownDelivery, type DeliveryView } from "./delivery-view";
import { webhookView, type WebhookView } from "./internal/view";

export const deliveryStatuses = ["pending", "delivering", "succeeded", "failed"] as const;

export const listDeliveriesInput = z.object({
  webhookId: z.string().max(100),
  status: z.enum(deliveryStatuses).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.number().int().min(1).max(100).default(50),
});

/**
 * A webhook's delivery log (kept 30 days), newest first, a page at a time, optionally of
 * one status: the deliveries of its events and its test deliveries. Another account's webhook
 * answers like a missing one.
 */
export async function listDeliveries({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: z.input<typeof listDeliveriesInput>;
}): Promise<{ webhook: WebhookView } & KeysetPage<DeliveryView>> {
  const data = parseOrThrow(listDeliveriesInput, input);
  if (!idPattern("webhook").test(data.webhookId)) throw notFound();
  const [webhook] = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, data.webhookId), eq(webhooks.accountId, ctx.actor.accountId)));
  if (!webhook) throw notFound();
  const after = decodeKeyset(data.cursor, z.string().max(100));
  const d = webhookDeliveries;
  const filters: SQL[] = [eq(d.webhookId, webhook.id), shownDelivery];
  if (data.status) filters.push(eq(d.status, data.status));
  if (after) filters.push(olderThan(d.createdAt, d.id, after));
  const rows = await ctx.db
    .select(deliveryColumns)
    .from(d)
    .leftJoin(events, eventOfDelivery)
    .where(and(...filters))
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(data.limit + 1);
  return { webhook: webhookView(webhook), ...toKeysetPage(rows, data.limit, (row) => row.id, deliveryView) };
}
