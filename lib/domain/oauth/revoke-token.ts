import { and, eq } from "drizzle-orm";
import { apiKeys, oauthConnections } from "@/db/schema";
import { parseKey } from "@/lib/domain/keys/format";
import { secretMatches } from "@/lib/base/secret-hash";
import { withTransaction, type ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { authenticateClient, type ClientAuthenticatedInput } from "./internal/client-auth";
import { endConnection } from "./internal/connection-keys";

/**
 * `POST /oauth/revoke` (RFC 7009): the app, authenticated as at the token endpoint, gives up an
 * access token. A key of one of the app's connections is revoked and the connection ends. Any other
 * token (unknown, wrong secret, another app's, revoked already) gets the same empty 200 (RFC 7009
 * §2.2), so the endpoint tells nobody whether a token exists.
 */
export async function revokeToken({ ctx, input }: { ctx: ServiceContext; input: ClientAuthenticatedInput }): Promise<void> {
  const client = await authenticateClient(ctx, input);
  const token = input.form.token;
  if (!token) throw new AppError("invalid_request", { reason: "missing_parameter", parameter: "token" });
  const parsed = parseKey(token);
  if (!parsed) return;
  await withTransaction(ctx, async (tx) => {
    const [found] = await tx.db
      .select({ key: apiKeys, connection: oauthConnections })
      .from(apiKeys)
      .innerJoin(oauthConnections, eq(oauthConnections.id, apiKeys.connectionId))
      .where(and(eq(apiKeys.id, parsed.id), eq(oauthConnections.clientId, client.id)))
      .for("update");
    if (!found || found.key.revokedAt || !secretMatches(parsed.secret, found.key.secretHash)) return;
    await endConnection(tx, found.connection, client.name);
  });
}
