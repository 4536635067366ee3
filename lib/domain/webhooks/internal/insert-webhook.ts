import { eq, sql } from "drizzle-orm";
import { accounts, webhooks } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import type { Actor, TransactionContext } from "@/lib/base/context";
import { AppError, notFound } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { newWebhookSecret } from "../signature";
import { maxWebhooksPerAccount, type WebhookFields } from "../fields";
import { sealSecret } from "@/lib/base/secret-box";
import { webhookView, type WebhookView } from "./view";

export type CreatedWebhook = WebhookView & {
  /** `whsec_…`, shown once: only an encrypted copy is stored, for signing. */
  secret: string;
};

/**
 * Creates a webhook inside the caller's transaction, for every way one is made (portal, CLI, an
 * app's webhook): an active account, at most `maxWebhooksPerAccount` webhooks, stopped ones
 * included; the creation goes to the activity log. `url` has passed `publicWebhookUrl`.
 */
export async function insertWebhook(
  ctx: TransactionContext<Actor>,
  input: WebhookFields & { accountId: string; clientId?: string },
): Promise<CreatedWebhook> {
  // Lock the account row so that two concurrent creations cannot both pass the limit.
  const [account] = await ctx.db
    .select({ id: accounts.id, active: accounts.active })
    .from(accounts)
    .where(eq(accounts.id, input.accountId))
    .for("update");
  if (!account || !account.active) throw notFound();
  const [{ count }] = await ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(webhooks)
    .where(eq(webhooks.accountId, account.id));
  if (count >= maxWebhooksPerAccount) {
    throw new AppError("limit_reached", { reason: "too_many_webhooks", limit: maxWebhooksPerAccount });
  }
  const id = newId("webhook");
  const secret = newWebhookSecret();
  const [row] = await ctx.db
    .insert(webhooks)
    .values({
      id,
      accountId: account.id,
      clientId: input.clientId ?? null,
      url: input.url,
      eventTypes: input.events,
      secretSealed: sealSecret(id, secret),
      createdAt: ctx.now,
    })
    .returning();
  await recordActivity(ctx.db, { accountId: account.id, actor: ctx.actor, action: "webhook.created", subjectId: id, details: input.url });
  return { ...webhookView(row), secret };
}
