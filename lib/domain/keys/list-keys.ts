import { and, desc, eq } from "drizzle-orm";
import { apiKeys, oauthClients, oauthConnections } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { maxKeysPerAccount } from "./create-key";
import { prefixFor, type Permission } from "./format";

export type KeyStatus = "active" | "expired" | "revoked";

/**
 * Who made a key, as far as it is recorded: a connected app's consent (`connection_id`), or the
 * account itself (the portal, or the operator's CLI for it: neither is told apart in the key row).
 */
export type KeyOrigin = { kind: "app"; connectionId: number; appName: string } | { kind: "account" };

export interface OwnKey {
  id: string;
  name: string;
  /** What is known of the whole key: `<id>|svc_test_…`; the secret is never stored. */
  displayPrefix: string;
  permissions: Permission[];
  environment: "sandbox" | "production";
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  status: KeyStatus;
  origin: KeyOrigin;
}

export interface OwnKeys {
  keys: OwnKey[];
  /** Keys that still work (neither revoked nor expired): what counts against `limit`. */
  usable: number;
  limit: number;
}

export const keyStatus = (key: { revokedAt: Date | null; expiresAt: Date }, now: Date): KeyStatus =>
  key.revokedAt ? "revoked" : key.expiresAt <= now ? "expired" : "active";

/**
 * The signed-in account's keys, newest first, every one of them (revoked and expired ones too, so the
 * page can show when a key stopped working), with the count the 10-key limit is checked against.
 */
export async function listOwnKeys({ ctx }: { ctx: ServiceContext<AccountActor> }): Promise<OwnKeys> {
  const rows = await ctx.db
    .select({ key: apiKeys, connectionId: oauthConnections.id, appName: oauthClients.name })
    .from(apiKeys)
    .leftJoin(oauthConnections, and(eq(oauthConnections.id, apiKeys.connectionId), eq(oauthConnections.accountId, apiKeys.accountId)))
    .leftJoin(oauthClients, eq(oauthClients.id, oauthConnections.clientId))
    .where(eq(apiKeys.accountId, ctx.actor.accountId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  const keys = rows.map(({ key, connectionId, appName }): OwnKey => {
    const environment = key.environment;
    return {
      id: key.id,
      name: key.name,
      displayPrefix: `${key.id}|${prefixFor(environment)}…`,
      permissions: key.permissions as Permission[],
      environment,
      createdAt: key.createdAt,
      expiresAt: key.expiresAt,
      lastUsedAt: key.lastUsedAt,
      revokedAt: key.revokedAt,
      status: keyStatus(key, ctx.now),
      origin: connectionId !== null && appName !== null ? { kind: "app", connectionId, appName } : { kind: "account" },
    };
  });
  return { keys, usable: keys.filter((key) => key.status === "active").length, limit: maxKeysPerAccount };
}
