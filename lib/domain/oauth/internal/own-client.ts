import { and, eq } from "drizzle-orm";
import { oauthClients } from "@/db/schema";
import type { AccountActor, TransactionContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";

/** One of the acting account's apps, locked for the change; another account's app answers like a missing one. */
export async function lockOwnClient(ctx: TransactionContext<AccountActor>, clientId: string) {
  const [client] = await ctx.db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.id, clientId), eq(oauthClients.accountId, ctx.actor.accountId)))
    .for("update");
  if (!client) throw notFound();
  return client;
}
