import { and, eq, isNull } from "drizzle-orm";
import { apiKeys, oauthConnections } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import type { TransactionContext } from "@/lib/base/context";

/** Revokes every usable key of a connection (there is at most one), each in the activity log. */
export async function revokeConnectionKeys(ctx: TransactionContext, connectionId: number): Promise<void> {
  const revoked = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: ctx.now })
    .where(and(eq(apiKeys.connectionId, connectionId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, accountId: apiKeys.accountId, name: apiKeys.name });
  for (const key of revoked) {
    await recordActivity(ctx.db, {
      accountId: key.accountId,
      actor: ctx.actor,
      action: "api_key.revoked",
      subjectId: key.id,
      details: key.name,
    });
  }
}

/** Ends a connection: its key revoked, `disconnected_at` set; nothing when it has ended already. */
export async function endConnection(
  ctx: TransactionContext,
  connection: typeof oauthConnections.$inferSelect,
  appName: string,
): Promise<Date> {
  await revokeConnectionKeys(ctx, connection.id);
  if (connection.disconnectedAt) return connection.disconnectedAt;
  await ctx.db.update(oauthConnections).set({ disconnectedAt: ctx.now }).where(eq(oauthConnections.id, connection.id));
  await recordActivity(ctx.db, {
    accountId: connection.accountId,
    actor: ctx.actor,
    action: "app.disconnected",
    subjectId: connection.clientId,
    details: appName,
  });
  return ctx.now;
}
