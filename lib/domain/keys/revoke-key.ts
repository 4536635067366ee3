import { and, eq, isNull } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import type { ServiceContext } from "@/lib/platform/context";
import { notFound } from "@/lib/platform/errors";

/**
 * Revokes a key at once: authentication reads the key row on every request, so the next request
 * with it gets 401. `accountId` scopes the revocation to the owner (portal); the operator omits it.
 */
export async function revokeKey({ ctx, input }: { ctx: ServiceContext; input: { id: string; accountId?: string } }) {
  return ctx.database.db.transaction(async (tx) => {
    const scope = input.accountId ? and(eq(apiKeys.id, input.id), eq(apiKeys.accountId, input.accountId)) : eq(apiKeys.id, input.id);
    const [key] = await tx.select().from(apiKeys).where(scope).for("update");
    if (!key) throw notFound();
    if (key.revokedAt) return { id: key.id, revokedAt: key.revokedAt };
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: ctx.now })
      .where(and(eq(apiKeys.id, key.id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, revokedAt: apiKeys.revokedAt });
    await recordActivity(tx, {
      accountId: key.accountId,
      actor: ctx.actor,
      action: "api_key.revoked",
      subjectId: key.id,
      details: key.name,
    });
    return revoked;
  });
}
