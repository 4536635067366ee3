import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { accounts, apiKeys } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { config } from "@/lib/base/config";
import {
  withTransaction,
  type AccountActor,
  type Actor,
  type OperatorActor,
  type ServiceContext,
  type SystemActor,
  type TransactionContext,
} from "@/lib/base/context";
import { AppError, notFound } from "@/lib/base/errors";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { generateKey, permissions, validityDays, type Permission } from "./format";
import { hashSecret } from "@/lib/base/secret-hash";

export const maxKeysPerAccount = 10;

export const keyFieldsInput = z.object({
  name: z.string().trim().min(1).max(100),
  permissions: z.array(z.enum(permissions)).min(1).max(permissions.length),
  days: z.union(validityDays.map((d) => z.literal(d))),
});

export const createKeyInput = keyFieldsInput.extend({ accountId: z.string().min(1) });

export interface CreatedKey {
  id: string;
  /** The whole key, shown once; only the hash of its secret is stored. */
  key: string;
  name: string;
  permissions: Permission[];
  environment: "sandbox" | "production";
  expiresAt: Date;
}

/** Creates a key for any account: the operator's CLI and the product itself (the dev console key). */
export async function createKey({
  ctx,
  input,
}: {
  ctx: ServiceContext<OperatorActor | SystemActor>;
  input: z.input<typeof createKeyInput>;
}): Promise<CreatedKey> {
  const { accountId, ...fields } = parseOrThrow(createKeyInput, input);
  return withTransaction(ctx, (tx) => issueKey(tx, { accountId, ...fields }));
}

/** The portal's key form: a key of the signed-in account. */
export async function createOwnKey({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: z.input<typeof keyFieldsInput>;
}): Promise<CreatedKey> {
  const fields = parseOrThrow(keyFieldsInput, input);
  return withTransaction(ctx, (tx) => issueKey(tx, { accountId: ctx.actor.accountId, ...fields }));
}

/**
 * Issues a key inside the caller's transaction, for every way a key is made (portal, CLI, OAuth
 * consent with `connectionId`): only an active, confirmed account; at most `maxKeysPerAccount`
 * usable keys (revoked and expired ones do not count); the creation goes to the activity log.
 */
export async function issueKey(
  ctx: TransactionContext<Actor>,
  input: z.output<typeof keyFieldsInput> & { accountId: string; connectionId?: number; resource?: string | null },
): Promise<CreatedKey> {
  const environment = config().APP_ENV;
  const generated = generateKey(environment);
  const expiresAt = new Date(ctx.now.getTime() + input.days * 86_400_000);
  const granted = [...new Set(input.permissions)];
  // Lock the account row so that two concurrent creations cannot both pass the limit.
  const [account] = await ctx.db.select().from(accounts).where(eq(accounts.id, input.accountId)).for("update");
  if (!account || !account.active) throw notFound();
  if (!account.confirmed) throw new AppError("forbidden");
  const [{ count }] = await ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, account.id), isNull(apiKeys.revokedAt), gt(apiKeys.expiresAt, ctx.now)));
  if (count >= maxKeysPerAccount) {
    throw new AppError("limit_reached", { reason: "too_many_keys", limit: maxKeysPerAccount });
  }
  await ctx.db.insert(apiKeys).values({
    id: generated.id,
    accountId: account.id,
    name: input.name,
    environment,
    secretHash: hashSecret(generated.secret),
    permissions: granted,
    expiresAt,
    connectionId: input.connectionId ?? null,
    resource: input.resource ?? null,
  });
  await recordActivity(ctx.db, {
    accountId: account.id,
    actor: ctx.actor,
    action: "api_key.created",
    subjectId: generated.id,
    details: input.name,
  });
  return { id: generated.id, key: generated.key, name: input.name, permissions: granted, environment, expiresAt };
}
