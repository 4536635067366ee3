import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { accounts, apiKeys, oauthCodes, oauthConnections } from "@/db/schema";
import { maxKeysPerAccount } from "@/lib/domain/keys/create-key";
import { permissions } from "@/lib/domain/keys/format";
import { hashSecret } from "@/lib/base/secret-hash";
import { withTransaction, type AccountActor, type ServiceContext, type TransactionContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { redirectWith, registeredClient, type AuthorizeRequest } from "./internal/authorize-request";
import { knownResources } from "./resources";
import { codeChallengePattern, newAuthorizationCode } from "./secrets";

/** How long a code can be exchanged, as `POST /oauth/token` documents it. */
export const codeLifetimeSeconds = 60;

const authorizeRequestInput = z.object({
  client: z.object({ id: z.string().min(1), name: z.string() }),
  resource: z.string().nullable(),
  redirectUri: z.string().min(1),
  scope: z.array(z.enum(permissions)).min(1),
  state: z.string().min(1),
  codeChallenge: z.string().regex(codeChallengePattern),
});

export type ConsentResult =
  /** Send the browser to `redirectTo`: the app's redirect address with `code`, `state` and `iss`. */
  | { kind: "redirect"; redirectTo: string; code: string }
  /**
   * Consent cannot be given now; the page says why. `too_many_keys`: the account has `limit` usable
   * keys and none of them is this app's (whose key the exchange would replace); `unconfirmed_account`:
   * keys need a confirmed e-mail address.
   */
  | { kind: "refused"; reason: "too_many_keys"; limit: number }
  | { kind: "refused"; reason: "unconfirmed_account" };

/**
 * The account holder presses Allow on a request `checkAuthorizeRequest` accepted: a single-use code
 * for 60 seconds (only its hash is stored), bound to the app, the redirect address, the scope, the
 * PKCE challenge and the resource (RFC 8707) when one was named. The key itself is issued when the app exchanges the code.
 */
export async function grantConsent({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: AuthorizeRequest }): Promise<ConsentResult> {
  const request = parseOrThrow(authorizeRequestInput, input);
  return withTransaction(ctx, async (tx) => {
    // The page passes the request back from its form: the app and its redirect address are checked again.
    const registered = await registeredClient(tx, request.client.id, request.redirectUri);
    if (!registered.found) throw notFound();
    if (request.resource !== null && !knownResources().includes(request.resource)) throw notFound();
    const [account] = await tx.db.select().from(accounts).where(eq(accounts.id, ctx.actor.accountId)).for("update");
    if (!account || !account.active) throw notFound();
    if (!account.confirmed) return { kind: "refused", reason: "unconfirmed_account" } as const;
    if ((await keysOutsideConnection(tx, account.id, request.client.id)) >= maxKeysPerAccount) {
      return { kind: "refused", reason: "too_many_keys", limit: maxKeysPerAccount } as const;
    }
    const code = newAuthorizationCode();
    await tx.db.insert(oauthCodes).values({
      id: newId("authorizationCode"),
      codeHash: hashSecret(code),
      clientId: request.client.id,
      accountId: account.id,
      redirectUri: request.redirectUri,
      scope: request.scope,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      expiresAt: new Date(ctx.now.getTime() + codeLifetimeSeconds * 1000),
    });
    return { kind: "redirect", redirectTo: redirectWith(request.redirectUri, { code, state: request.state }), code } as const;
  });
}

/** The account's usable keys but the one of its connection to this app, which the exchange replaces. */
async function keysOutsideConnection(ctx: TransactionContext, accountId: string, clientId: string): Promise<number> {
  const [{ count }] = await ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(apiKeys)
    .leftJoin(oauthConnections, eq(oauthConnections.id, apiKeys.connectionId))
    .where(
      and(
        eq(apiKeys.accountId, accountId),
        isNull(apiKeys.revokedAt),
        gt(apiKeys.expiresAt, ctx.now),
        or(isNull(oauthConnections.clientId), sql`${oauthConnections.clientId} <> ${clientId}`),
      ),
    );
  return count;
}
