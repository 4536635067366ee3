import { and, asc, eq, gt, inArray, isNull, lt, lte, or } from "drizzle-orm";
import { accounts, listings } from "@/db/schema";
import { portalLink, sendAccountMail } from "@/lib/domain/accounts/mails";
import { withTransaction, type ServiceContext, type StaffActor } from "@/lib/base/context";
import { logger } from "@/lib/base/logger";
import { serviceTimeZone } from "@/lib/base/time-zone";
import { confirmationDays } from "./unconfirm";

/** The owner is reminded this many days before a listing's 30 days end. */
export const reminderDaysBefore = 3;

const dayMs = 86_400_000;

/** When a listing confirmed at `confirmedAt` becomes `unconfirmed`. */
export const confirmationDeadline = (confirmedAt: Date): Date => new Date(confirmedAt.getTime() + confirmationDays * dayMs);

/** Whether an active listing confirmed at `confirmedAt` is in its last days, those the reminder is sent for. */
export const confirmationDueSoon = (confirmedAt: Date, now: Date): boolean =>
  confirmationDeadline(confirmedAt).getTime() - now.getTime() <= reminderDaysBefore * dayMs;

export interface ReminderSummary {
  /** Listings whose owners were told, in `mails` messages (one per account). */
  reminded: number;
  mails: number;
}

/**
 * Mails each owner of active listings in their last 3 days before `unconfirmed`, once per
 * confirmation period: one message per account in its language, listing them, with a link to My
 * listings. A listing is marked reminded before its mail is sent (so two runs never both send it)
 * and unmarked when the mail fails, so the next hourly run tries again; a process dying between the
 * two loses that one reminder, never sends it twice. Throws after the others are done when a mail
 * failed, so the job's run says so and is retried.
 */
export async function remindConfirmationDue({ ctx }: { ctx: ServiceContext<StaffActor> }): Promise<ReminderSummary> {
  const due = and(
    eq(listings.status, "active"),
    isNull(listings.deletedAt),
    lte(listings.confirmedAt, new Date(ctx.now.getTime() - (confirmationDays - reminderDaysBefore) * dayMs)),
    // Past the 30 days the listing is about to become unconfirmed: a reminder would come too late.
    gt(listings.confirmedAt, new Date(ctx.now.getTime() - confirmationDays * dayMs)),
    or(isNull(listings.confirmationRemindedAt), lt(listings.confirmationRemindedAt, listings.confirmedAt)),
  )!;
  const found = await ctx.db
    .select({ accountId: listings.accountId })
    .from(listings)
    .where(due)
    .groupBy(listings.accountId)
    .orderBy(asc(listings.accountId))
    .limit(200);
  const summary: ReminderSummary = { reminded: 0, mails: 0 };
  const failed: string[] = [];
  for (const { accountId } of found) {
    // The mark is bookkeeping, not a change of the listing: written directly, without a new version
    // (an integrator's `If-Match` stays valid) or a new place in the "last modified" order.
    const claimed = await withTransaction(ctx, (tx) =>
      tx.db
        .update(listings)
        .set({ confirmationRemindedAt: ctx.now })
        .where(and(due, eq(listings.accountId, accountId)))
        .returning({ id: listings.id, code: listings.code, fields: listings.fields, confirmedAt: listings.confirmedAt }),
    );
    if (!claimed.length) continue;
    try {
      if (await mailOwner(ctx, accountId, claimed)) {
        summary.reminded += claimed.length;
        summary.mails++;
      }
    } catch (error) {
      logger.error("confirmation reminder not sent; the next run tries again", { accountId, error });
      await ctx.db
        .update(listings)
        .set({ confirmationRemindedAt: null })
        .where(
          and(
            inArray(
              listings.id,
              claimed.map((listing) => listing.id),
            ),
            eq(listings.confirmationRemindedAt, ctx.now),
          ),
        );
      failed.push(accountId);
    }
  }
  if (failed.length) throw new Error(`Confirmation reminders not sent to ${failed.length} account(s): ${failed.join(", ")}`);
  return summary;
}

async function mailOwner(
  ctx: ServiceContext<StaffActor>,
  accountId: string,
  claimed: { code: string; fields: Record<string, unknown>; confirmedAt: Date | null }[],
): Promise<boolean> {
  const [account] = await ctx.db
    .select({ email: accounts.email, name: accounts.name, language: accounts.language })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.active, true)));
  // A closed account has nobody to remind; its listings stay marked, like any reminded ones.
  if (!account) return false;
  const locale = account.language;
  const earliest = Math.min(...claimed.map((listing) => listing.confirmedAt!.getTime()));
  const date = new Intl.DateTimeFormat(locale === "ro" ? "ro-RO" : "en-GB", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: serviceTimeZone,
  }).format(confirmationDeadline(new Date(earliest)));
  await sendAccountMail({
    to: account.email,
    locale,
    key: "confirmation_reminder",
    params: {
      name: account.name,
      date,
      listings: claimed.map((listing) => `- ${String(listing.fields.title)} (${listing.code})`).join("\n"),
      link: portalLink("/account/listings", { status: "active" }),
    },
  });
  return true;
}
