import { and, eq } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import type { AccountActor, TransactionContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { idPattern } from "@/lib/base/ids";

/** One of the acting account's webhooks, locked for the change; another account's answers like a missing one. */
export async function lockOwnWebhook(ctx: TransactionContext<AccountActor>, id: string) {
  if (!idPattern("webhook").test(id)) throw notFound();
  const [webhook] = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.accountId, ctx.actor.accountId)))
    .for("update");
  if (!webhook) throw notFound();
  return webhook;
}
