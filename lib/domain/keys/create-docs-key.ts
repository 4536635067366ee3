import { and, eq, isNull } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { config } from "@/lib/base/config";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { issueKey, type CreatedKey } from "./create-key";
import { permissions } from "./format";

/** The name of the key /docs fills its samples with, as the account's key list shows it. */
export const docsKeyName = "docs samples";

/**
 * A sandbox key of the signed-in account for the guides' samples, with every permission the samples
 * use and the shortest validity. The page keeps it in the browser tab (sessionStorage), never here:
 * only its hash is stored. One at a time: the account's earlier docs key is revoked in the same
 * transaction, so pressing the button again never uses up the key limit. Refused in production,
 * where a key from a page's button would be a live one.
 */
export async function createDocsKey({ ctx }: { ctx: ServiceContext<AccountActor> }): Promise<CreatedKey> {
  if (config().APP_ENV !== "sandbox") throw new AppError("forbidden");
  return withTransaction(ctx, async (tx) => {
    const earlier = await tx.db
      .update(apiKeys)
      .set({ revokedAt: tx.now })
      .where(and(eq(apiKeys.accountId, ctx.actor.accountId), eq(apiKeys.name, docsKeyName), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    for (const key of earlier)
      await recordActivity(tx.db, {
        accountId: ctx.actor.accountId,
        actor: ctx.actor,
        action: "api_key.revoked",
        subjectId: key.id,
        details: docsKeyName,
      });
    return issueKey(tx, { accountId: ctx.actor.accountId, name: docsKeyName, permissions: [...permissions], days: 30 });
  });
}
