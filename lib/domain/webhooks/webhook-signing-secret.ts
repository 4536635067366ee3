import { eq } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { logger } from "@/lib/base/logger";
import { openSecret, UnreadableSecretError } from "@/lib/base/secret-box";

/**
 * The plain `whsec_…` secret of a webhook, for the sender only (staff contexts: jobs and the CLI):
 * read at every attempt, so a rotation takes effect at the next one. Null when it does not open.
 */
export async function webhookSigningSecret({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { id: string };
}): Promise<string | null> {
  const [row] = await ctx.db
    .select({ id: webhooks.id, secretSealed: webhooks.secretSealed })
    .from(webhooks)
    .where(eq(webhooks.id, input.id));
  if (!row) throw notFound();
  return signingSecretOf(row);
}

/**
 * The same from a webhook row the sender has read already (with its delivery, in one query). A secret
 * that does not open (its encryption key is no longer configured) is null: the attempt is not sent
 * and fails as `secret_unreadable`, and the log says which key it needs, so restoring that key in
 * `ENCRYPTION_KEYS` lets the next attempt go.
 */
export function signingSecretOf(row: Pick<typeof webhooks.$inferSelect, "id" | "secretSealed">): string | null {
  try {
    return openSecret(row.id, row.secretSealed);
  } catch (error) {
    if (!(error instanceof UnreadableSecretError)) throw error;
    logger.error("webhook secret unreadable", { webhookId: row.id, keyId: error.keyId, detail: error.message });
    return null;
  }
}
