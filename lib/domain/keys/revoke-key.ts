import { and, eq, isNull, type SQL } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { withTransaction, type AccountActor, type OperatorActor, type ServiceContext, type SystemActor } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";

/**
 * Revokes one of the acting account's keys at once: authentication reads the key row on every
 * request, so the next request with it gets 401. Another account's key answers like a missing one.
 */
export async function revokeKey({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { id: string } }) {
  return revoke(ctx, and(eq(apiKeys.id, input.id), eq(apiKeys.accountId, ctx.actor.accountId))!);
}

/** Revokes any account's key: the operator's CLI and the product itself only (the context's type says so). */
export async function revokeAnyKey({ ctx, input }: { ctx: ServiceContext<OperatorActor | SystemActor>; input: { id: string } }) {
  return revoke(ctx, eq(apiKeys.id, input.id));
}

async function revoke(ctx: ServiceContext, scope: SQL) {
  return withTransaction(ctx, async (tx) => {
    const [key] = await tx.db.select().from(apiKeys).where(scope).for("update");
    if (!key) throw notFound();
    if (key.revokedAt) return { id: key.id, revokedAt: key.revokedAt };
    const [revoked] = await tx.db
      .update(apiKeys)
      .set({ revokedAt: ctx.now })
      .where(and(eq(apiKeys.id, key.id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, revokedAt: apiKeys.revokedAt });
    await recordActivity(tx.db, {
      accountId: key.accountId,
      actor: ctx.actor,
      action: "api_key.revoked",
      subjectId: key.id,
      details: key.name,
    });
    return revoked;
  });
}
