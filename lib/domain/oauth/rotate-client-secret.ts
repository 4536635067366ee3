import { eq } from "drizzle-orm";
import { oauthClients } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { hashSecret } from "@/lib/base/secret-hash";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { lockOwnClient } from "./internal/own-client";
import { newClientSecret } from "./secrets";

/**
 * A new secret for one of the account's apps, shown once. Only one hash is stored, so the old secret
 * stops working at once: the app's token and revocation requests need the new one from now on.
 */
export async function rotateClientSecret({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { client_id: string };
}): Promise<{ client_id: string; client_secret: string }> {
  return withTransaction(ctx, async (tx) => {
    const client = await lockOwnClient(tx, input.client_id);
    const secret = newClientSecret();
    await tx.db
      .update(oauthClients)
      .set({ secretHash: hashSecret(secret), secretRotatedAt: ctx.now })
      .where(eq(oauthClients.id, client.id));
    await recordActivity(tx.db, {
      accountId: ctx.actor.accountId,
      actor: ctx.actor,
      action: "app.secret_rotated",
      subjectId: client.id,
      details: client.name,
    });
    return { client_id: client.id, client_secret: secret };
  });
}
