import { and, eq, isNull } from "drizzle-orm";
import { apiKeys, oauthCodes, oauthConnections } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { issueKey, maxKeysPerAccount } from "@/lib/domain/keys/create-key";
import { type Permission } from "@/lib/domain/keys/format";
import { hashSecret } from "@/lib/base/secret-hash";
import { withTransaction, type ServiceContext, type TransactionContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { authenticateClient, type ClientAuthenticatedInput, type OAuthClient } from "./internal/client-auth";
import { endConnection, revokeConnectionKeys } from "./internal/connection-keys";
import { scopeText } from "./internal/scope";
import { codeVerifierPattern, s256 } from "./secrets";

/** Days a key granted by consent lasts (`expires_in`); after that the account consents again. */
export const grantedKeyDays = 365;

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  connection_id: number;
}

type Outcome = { token: TokenResponse } | { refusal: AppError };

/**
 * `POST /oauth/token` with `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.5). The app
 * authenticates (`authenticateClient`); the code must be its own, unused, unexpired, for the same
 * redirect address, the verifier must hash to the challenge, and a `resource` sent again must be the
 * consent's (RFC 8707). Then, in one transaction: the
 * account's connection to the app (created, or the same `connection_id` again, reconnected and with
 * the new scope), its previous key revoked, a 365-day key issued for the connection and bound to the
 * consent's resource, the code marked
 * used with that key.
 *
 * The code row is locked, so of two exchanges of one code one succeeds and the other finds it used.
 * A used code presented again means it leaked (RFC 6749 §4.1.2): the consent it came from is withdrawn
 * (`withdrawConsent`), and that refusal commits.
 */
export async function exchangeCode({ ctx, input }: { ctx: ServiceContext; input: ClientAuthenticatedInput }): Promise<TokenResponse> {
  const client = await authenticateClient(ctx, input);
  const form = input.form;
  if (form.grant_type === undefined) throw new AppError("invalid_request", { reason: "missing_parameter", parameter: "grant_type" });
  if (form.grant_type !== "authorization_code") throw new AppError("unsupported_grant_type");
  for (const parameter of ["code", "redirect_uri", "code_verifier"] as const) {
    if (!form[parameter]) throw new AppError("invalid_request", { reason: "missing_parameter", parameter });
  }
  if (!codeVerifierPattern.test(form.code_verifier)) throw new AppError("invalid_request", { reason: "code_verifier_format" });
  const outcome = await withTransaction(ctx, (tx) => exchange(tx, client, form));
  if ("refusal" in outcome) throw outcome.refusal;
  return outcome.token;
}

async function exchange(ctx: TransactionContext, client: OAuthClient, form: Readonly<Record<string, string>>): Promise<Outcome> {
  const [code] = await ctx.db
    .select()
    .from(oauthCodes)
    .where(eq(oauthCodes.codeHash, hashSecret(form.code)))
    .for("update");
  const refuse = (reason: "code_unknown" | "code_expired" | "code_used" | "redirect_uri_mismatch" | "code_verifier_mismatch") => ({
    refusal: new AppError("invalid_grant", { reason }),
  });
  if (!code || code.clientId !== client.id) return refuse("code_unknown");
  if (code.usedAt) {
    await withdrawConsent(ctx, code, client);
    return refuse("code_used");
  }
  if (code.expiresAt <= ctx.now) return refuse("code_expired");
  if (code.redirectUri !== form.redirect_uri) return refuse("redirect_uri_mismatch");
  if (s256(form.code_verifier) !== code.codeChallenge) return refuse("code_verifier_mismatch");
  // RFC 8707 §2.2: the token request may repeat the resource; it cannot name another one.
  if (form.resource !== undefined && form.resource !== code.resource)
    return { refusal: new AppError("invalid_target", { reason: "resource_mismatch" }) };

  const scope = code.scope as Permission[];
  const [connection] = await ctx.db
    .insert(oauthConnections)
    .values({ accountId: code.accountId, clientId: client.id, scope, connectedAt: ctx.now })
    .onConflictDoUpdate({
      target: [oauthConnections.accountId, oauthConnections.clientId],
      set: { scope, connectedAt: ctx.now, disconnectedAt: null },
    })
    .returning();
  await revokeConnectionKeys(ctx, connection.id);
  const key = await issueKey(ctx, {
    accountId: code.accountId,
    name: client.name,
    permissions: scope,
    days: grantedKeyDays,
    connectionId: connection.id,
    resource: code.resource,
  }).catch((error: unknown) => {
    throw keyRefusal(error);
  });
  await ctx.db.update(oauthCodes).set({ usedAt: ctx.now, keyId: key.id }).where(eq(oauthCodes.id, code.id));
  await recordActivity(ctx.db, {
    accountId: code.accountId,
    actor: ctx.actor,
    action: "app.connected",
    subjectId: client.id,
    details: client.name,
  });
  return {
    token: {
      access_token: key.key,
      token_type: "Bearer",
      expires_in: Math.round((key.expiresAt.getTime() - ctx.now.getTime()) / 1000),
      scope: scopeText(scope),
      connection_id: connection.id,
    },
  };
}

/** Why the key could not be issued, as the token endpoint says it; the transaction rolls back and the code stays unused. */
function keyRefusal(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  if (error.code === "limit_reached") return new AppError("invalid_grant", { reason: "key_limit", limit: maxKeysPerAccount });
  if (error.code === "not_found" || error.code === "forbidden") return new AppError("invalid_grant", { reason: "account_unavailable" });
  return error;
}

/**
 * A replayed code: whoever replays it may hold the account's other codes for this app too, so none
 * of them is exchanged any more (the unused ones are deleted: presented, they are unknown), and the
 * connection the code served ends, which revokes its key even when a later code replaced the one
 * this code granted.
 */
async function withdrawConsent(ctx: TransactionContext, code: typeof oauthCodes.$inferSelect, client: OAuthClient): Promise<void> {
  await ctx.db
    .delete(oauthCodes)
    .where(and(eq(oauthCodes.clientId, client.id), eq(oauthCodes.accountId, code.accountId), isNull(oauthCodes.usedAt)));
  if (!code.keyId) return;
  const [key] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, code.keyId)).for("update");
  if (!key || key.connectionId === null) return;
  const [connection] = await ctx.db.select().from(oauthConnections).where(eq(oauthConnections.id, key.connectionId)).for("update");
  if (connection) await endConnection(ctx, connection, client.name);
}
