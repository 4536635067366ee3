import { and, eq } from "drizzle-orm";
import { events, webhookDeliveries, webhooks } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { idPattern } from "@/lib/base/ids";
import { deliveryColumns, deliveryView, eventOfDelivery, sentBody, shownDelivery, type DeliveryView } from "./delivery-view";
import { webhookView, type WebhookView } from "./internal/view";

export interface DeliveryDetail extends DeliveryView {
  webhook: WebhookView;
  request: {
    /** The headers of the last attempt as sent; null before the first attempt. */
    headers: Record<string, string> | null;
    /** The body, the same on every attempt. */
    body: string;
  };
  /** The start of the receiver's last answer. */
  response_excerpt: string | null;
}

/** One delivery of one of the account's webhooks (a test delivery too) with its request and the receiver's answer; another account's is not found. */
export async function getDelivery({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { webhookId: string; id: string };
}): Promise<DeliveryDetail> {
  if (!idPattern("webhook").test(input.webhookId) || !idPattern("webhookDelivery").test(input.id)) throw notFound();
  const d = webhookDeliveries;
  const [row] = await ctx.db
    .select({ ...deliveryColumns, webhook: webhooks })
    .from(d)
    .leftJoin(events, eventOfDelivery)
    .innerJoin(webhooks, eq(webhooks.id, d.webhookId))
    .where(and(eq(d.id, input.id), eq(d.webhookId, input.webhookId), eq(webhooks.accountId, ctx.actor.accountId), shownDelivery));
  if (!row) throw notFound();
  return {
    ...deliveryView(row),
    webhook: webhookView(row.webhook),
    request: { headers: row.lastRequestHeaders, body: sentBody(row) },
    response_excerpt: row.lastResponseExcerpt,
  };
}
