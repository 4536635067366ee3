import { asc, eq } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { webhookView, type WebhookView } from "./internal/view";

/** The signed-in account's webhooks (its apps' included), oldest first; secrets are never readable again. */
export async function listWebhooks({ ctx }: { ctx: ServiceContext<AccountActor> }): Promise<WebhookView[]> {
  const rows = await ctx.db
    .select()
    .from(webhooks)
    .where(eq(webhooks.accountId, ctx.actor.accountId))
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
  return rows.map(webhookView);
}
