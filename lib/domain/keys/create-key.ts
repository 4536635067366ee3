import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { accounts, apiKeys } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { config } from "@/lib/platform/config";
import { withTransaction, type OperatorActor, type ServiceContext, type SystemActor } from "@/lib/platform/context";
import { AppError, notFound } from "@/lib/platform/errors";
import { parseOrThrow } from "@/lib/platform/validation/zod";
import { generateKey, hashSecret, permissions, validityDays, type Permission } from "./format";

export const maxKeysPerAccount = 10;

export const createKeyInput = z.object({
  accountId: z.string().min(1),
  name: z.string().trim().min(1).max(100),
  permissions: z.array(z.enum(permissions)).min(1).max(permissions.length),
  days: z.union(validityDays.map((d) => z.literal(d))),
});

export interface CreatedKey {
  id: string;
  /** The whole key, shown once; only the hash of its secret is stored. */
  key: string;
  name: string;
  permissions: Permission[];
  environment: "sandbox" | "production";
  expiresAt: Date;
}

/**
 * Creates a key for any account: the operator's CLI and the product itself (the dev console key).
 * The portal's form, for the signed-in account's own keys, comes with the portal.
 */
export async function createKey({
  ctx,
  input,
}: {
  ctx: ServiceContext<OperatorActor | SystemActor>;
  input: z.input<typeof createKeyInput>;
}): Promise<CreatedKey> {
  const data = parseOrThrow(createKeyInput, input);
  const environment = config().APP_ENV;
  const generated = generateKey(environment);
  const expiresAt = new Date(ctx.now.getTime() + data.days * 86_400_000);
  const granted = [...new Set(data.permissions)];
  await withTransaction(ctx, async ({ db: tx }) => {
    // Lock the account row so that two concurrent creations cannot both pass the limit.
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, data.accountId)).for("update");
    if (!account || !account.active) throw notFound();
    if (!account.confirmed) throw new AppError("forbidden");
    const [{ count }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, account.id), isNull(apiKeys.revokedAt), gt(apiKeys.expiresAt, ctx.now)));
    if (count >= maxKeysPerAccount) {
      throw new AppError("limit_reached", { reason: "too_many_keys", limit: maxKeysPerAccount });
    }
    await tx.insert(apiKeys).values({
      id: generated.id,
      accountId: account.id,
      name: data.name,
      environment,
      secretHash: hashSecret(generated.secret),
      permissions: granted,
      expiresAt,
    });
    await recordActivity(tx, {
      accountId: account.id,
      actor: ctx.actor,
      action: "api_key.created",
      subjectId: generated.id,
      details: data.name,
    });
  });
  return { id: generated.id, key: generated.key, name: data.name, permissions: granted, environment, expiresAt };
}
