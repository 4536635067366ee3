import { eq } from "drizzle-orm";
import { z } from "zod";
import { oauthClients } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { lockOwnClient } from "./internal/own-client";
import { redirectUris } from "./redirect-uris";

export const updateClientRedirectUrisInput = z.object({ client_id: z.string().min(1), redirect_uris: redirectUris });

/**
 * Replaces the redirect addresses of one of the account's apps. Codes already issued keep the address
 * they were issued for: the token request must repeat it, and it was registered when consent was given.
 */
export async function updateClientRedirectUris({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: z.input<typeof updateClientRedirectUrisInput>;
}): Promise<{ client_id: string; redirect_uris: string[] }> {
  const data = parseOrThrow(updateClientRedirectUrisInput, input);
  return withTransaction(ctx, async (tx) => {
    const client = await lockOwnClient(tx, data.client_id);
    await tx.db.update(oauthClients).set({ redirectUris: data.redirect_uris }).where(eq(oauthClients.id, client.id));
    await recordActivity(tx.db, {
      accountId: ctx.actor.accountId,
      actor: ctx.actor,
      action: "app.redirect_uris_updated",
      subjectId: client.id,
      details: client.name,
    });
    return { client_id: client.id, redirect_uris: data.redirect_uris };
  });
}
