import { and, eq } from "drizzle-orm";
import { oauthClients, oauthConnections } from "@/db/schema";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { endConnection } from "./internal/connection-keys";

/**
 * The account holder disconnects an app: its key is revoked at once and the connection ends (a later
 * consent reconnects it with the same `connection_id`). Another account's connection answers like a
 * missing one; disconnecting twice changes nothing.
 */
export async function disconnect({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { connection_id: number };
}): Promise<{ connection_id: number; disconnected_at: Date }> {
  return withTransaction(ctx, async (tx) => {
    const [found] = await tx.db
      .select({ connection: oauthConnections, appName: oauthClients.name })
      .from(oauthConnections)
      .innerJoin(oauthClients, eq(oauthClients.id, oauthConnections.clientId))
      .where(and(eq(oauthConnections.id, input.connection_id), eq(oauthConnections.accountId, ctx.actor.accountId)))
      .for("update", { of: oauthConnections });
    if (!found) throw notFound();
    const disconnectedAt = await endConnection(tx, found.connection, found.appName);
    return { connection_id: found.connection.id, disconnected_at: disconnectedAt };
  });
}
