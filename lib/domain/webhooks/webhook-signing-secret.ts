import type { webhooks } from "@/db/schema";
import { logger } from "@/lib/base/logger";
import { openSecret, UnreadableSecretError } from "@/lib/base/secret-box";

/**
 * The plain `whsec_…` secret of a webhook, for the sender only, from the webhook's row it has read
 * (with its delivery, in one query): read at every attempt, so a rotation takes effect at the next
 * one. A secret that does not open (its encryption key is no longer configured) is null: the attempt is not sent
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
