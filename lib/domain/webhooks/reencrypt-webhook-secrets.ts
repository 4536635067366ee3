import { and, asc, eq, gt } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import { withTransaction, type OperatorActor, type ServiceContext } from "@/lib/base/context";
import { openSecretWithAge, sealSecret, UnreadableSecretError } from "@/lib/base/secret-box";

export interface ReencryptionCounts {
  reencrypted: number;
  already_current: number;
  /** Secrets that do not open, by the key id they need (`v1`: a key derived from an auth secret no longer listed). */
  unreadable: Record<string, number>;
}

/**
 * Seals every webhook secret under the newest encryption key, `batchSize` rows per transaction, in id
 * order. The plain secrets stay the same, so receivers notice nothing. Idempotent: a secret already
 * under the newest key is left alone, so a second run re-encrypts nothing. Each row is written only if
 * it still holds the value read, so a secret rotated meanwhile keeps its new value.
 */
export async function reencryptWebhookSecrets({
  ctx,
  input,
}: {
  ctx: ServiceContext<OperatorActor>;
  input: { batchSize: number };
}): Promise<ReencryptionCounts> {
  const counts: ReencryptionCounts = { reencrypted: 0, already_current: 0, unreadable: {} };
  let after = "";
  for (;;) {
    const batch = await withTransaction(ctx, async (tx) => {
      const rows = await tx.db
        .select({ id: webhooks.id, secretSealed: webhooks.secretSealed })
        .from(webhooks)
        .where(gt(webhooks.id, after))
        .orderBy(asc(webhooks.id))
        .limit(input.batchSize);
      for (const row of rows) {
        const opened = openOrCount(row, counts);
        if (!opened) continue;
        if (opened.current) {
          counts.already_current += 1;
          continue;
        }
        await tx.db
          .update(webhooks)
          .set({ secretSealed: sealSecret(row.id, opened.plain) })
          .where(and(eq(webhooks.id, row.id), eq(webhooks.secretSealed, row.secretSealed)));
        counts.reencrypted += 1;
      }
      return rows;
    });
    if (batch.length < input.batchSize) return counts;
    after = batch[batch.length - 1].id;
  }
}

function openOrCount(row: { id: string; secretSealed: string }, counts: ReencryptionCounts) {
  try {
    return openSecretWithAge(row.id, row.secretSealed);
  } catch (error) {
    if (!(error instanceof UnreadableSecretError)) throw error;
    counts.unreadable[error.keyId] = (counts.unreadable[error.keyId] ?? 0) + 1;
    return undefined;
  }
}
