import { eq } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { openSecret } from "./internal/secret-box";

/**
 * The plain `whsec_…` secret of a webhook, for the sender only (staff contexts: jobs and the CLI):
 * read at every attempt, so a rotation takes effect at the next one.
 */
export async function webhookSigningSecret({ ctx, input }: { ctx: ServiceContext<StaffActor>; input: { id: string } }): Promise<string> {
  const [row] = await ctx.db
    .select({ id: webhooks.id, secretSealed: webhooks.secretSealed })
    .from(webhooks)
    .where(eq(webhooks.id, input.id));
  if (!row) throw notFound();
  return signingSecretOf(row);
}

/** The same from a webhook row the sender has read already (with its delivery, in one query). */
export const signingSecretOf = (row: Pick<typeof webhooks.$inferSelect, "id" | "secretSealed">): string =>
  openSecret(row.id, row.secretSealed);
