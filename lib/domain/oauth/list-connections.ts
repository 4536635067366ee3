import { and, asc, eq, isNull } from "drizzle-orm";
import { apiKeys, oauthClients, oauthConnections } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";

export interface Connection {
  connection_id: number;
  client_id: string;
  app_name: string;
  scope: string[];
  connected_at: Date;
  /** Expiry of the connection's key; null when it has none usable (revoked). Past when it has expired: consent again. */
  key_expires_at: Date | null;
}

/** The apps connected to the signed-in account, oldest connection first. */
export async function listConnections({ ctx }: { ctx: ServiceContext<AccountActor> }): Promise<Connection[]> {
  const rows = await ctx.db
    .select({
      id: oauthConnections.id,
      clientId: oauthConnections.clientId,
      appName: oauthClients.name,
      scope: oauthConnections.scope,
      connectedAt: oauthConnections.connectedAt,
      keyExpiresAt: apiKeys.expiresAt,
    })
    .from(oauthConnections)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthConnections.clientId))
    .leftJoin(apiKeys, and(eq(apiKeys.connectionId, oauthConnections.id), isNull(apiKeys.revokedAt)))
    .where(and(eq(oauthConnections.accountId, ctx.actor.accountId), isNull(oauthConnections.disconnectedAt)))
    .orderBy(asc(oauthConnections.connectedAt), asc(oauthConnections.id));
  return rows.map((row) => ({
    connection_id: row.id,
    client_id: row.clientId,
    app_name: row.appName,
    scope: row.scope,
    connected_at: row.connectedAt,
    key_expires_at: row.keyExpiresAt,
  }));
}
