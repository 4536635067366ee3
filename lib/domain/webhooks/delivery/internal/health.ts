import { and, eq, gte, sql } from "drizzle-orm";
import type { Handle } from "@/db";
import { accounts, webhookDeliveries, webhooks } from "@/db/schema";
import { portalLink, sendAccountMail } from "@/lib/domain/accounts/mails";
import { recordActivity } from "@/lib/domain/accounts/activity";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import type { Locale } from "@/lib/base/i18n";
import { logger } from "@/lib/base/logger";

/**
 * Endpoint health: a webhook whose every attempt has failed for this long is
 * stopped, and its owner told; a receiver answering `410 Gone` stops it at once.
 */
export const failingDaysBeforeStop = 5;

const dayMs = 24 * 60 * 60 * 1000;

type SystemStopReason = "gone" | "failing";

/** Why a failed attempt stops its webhook, if it does: a `410 Gone` at once, else failures for 5 days. */
export function systemStopReason(input: { gone: boolean; failingSince: Date | null; now: Date }): SystemStopReason | null {
  if (input.gone) return "gone";
  if (input.failingSince && input.now.getTime() - input.failingSince.getTime() >= failingDaysBeforeStop * dayMs) return "failing";
  return null;
}

/**
 * Stops a webhook for the system, with its activity entry, in one transaction; when this call
 * stopped it (not another before it), mails its owner in the account's language. A mail that cannot
 * be sent is logged and not retried: the stop itself is committed and the portal shows its notice.
 */
export async function stopFailingWebhook(db: Handle, input: { webhookId: string; reason: SystemStopReason; now: Date }): Promise<void> {
  const { webhookId, reason, now } = input;
  const stopped = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhooks)
      .set({ active: false, stoppedReason: reason, stoppedAt: now })
      .where(and(eq(webhooks.id, webhookId), eq(webhooks.active, true)))
      .returning({ accountId: webhooks.accountId, url: webhooks.url });
    if (!row) return null;
    await recordActivity(tx, {
      accountId: row.accountId,
      actor: { kind: "system" },
      action: reason === "gone" ? "webhook.stopped_gone" : "webhook.stopped_failing",
      subjectId: webhookId,
      details: row.url,
    });
    logger.info("webhook stopped by the health check", { webhookId, reason });
    return row;
  });
  if (!stopped) return;
  try {
    const [account] = await db
      .select({ email: accounts.email, name: accounts.name, language: accounts.language })
      .from(accounts)
      .where(eq(accounts.id, stopped.accountId));
    if (!account) return;
    await sendAccountMail({
      to: account.email,
      locale: account.language as Locale,
      key: reason === "gone" ? "webhook_stopped_gone" : "webhook_stopped_failing",
      params: { name: account.name, url: stopped.url, days: failingDaysBeforeStop, link: portalLink("/settings/api/webhooks") },
    });
  } catch (error) {
    logger.error("webhook stopped: the owner's mail could not be sent", { webhookId, error });
  }
}

export interface SuccessRate {
  /** Deliveries of the last 24 hours attempted at least once. */
  attempted: number;
  /** Of those, the ones whose last attempt succeeded. */
  succeeded: number;
}

/**
 * The success of each of the signed-in account's webhooks over the last 24 hours: of the deliveries
 * made in that time and attempted at least once, the share that succeeded (one waiting for a retry
 * counts as not yet). A webhook without such deliveries is absent.
 */
export async function webhookSuccessRates({ ctx }: { ctx: ServiceContext<AccountActor> }): Promise<Map<string, SuccessRate>> {
  const d = webhookDeliveries;
  const rows = await ctx.db
    .select({
      webhookId: d.webhookId,
      attempted: sql<number>`count(*)::int`,
      succeeded: sql<number>`(count(*) filter (where ${d.status} = 'succeeded'))::int`,
    })
    .from(d)
    .innerJoin(webhooks, eq(webhooks.id, d.webhookId))
    .where(and(eq(webhooks.accountId, ctx.actor.accountId), gte(d.createdAt, new Date(ctx.now.getTime() - dayMs)), sql`${d.attempts} > 0`))
    .groupBy(d.webhookId);
  return new Map(rows.map((row) => [row.webhookId, { attempted: row.attempted, succeeded: row.succeeded }]));
}
