import { and, eq, isNull } from "drizzle-orm";
import { accounts, listingFeeds } from "@/db/schema";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import type { Locale } from "@/lib/base/i18n";
import { logger } from "@/lib/base/logger";
import { portalLink, sendAccountMail } from "@/lib/domain/accounts/mails";
import { feedFailingHoursBeforeReport } from "../limits";

const hourMs = 3_600_000;

/** The portal page that lists the account's feeds and their notices. */
export const feedsPagePath = "/account/listings/feeds";

/**
 * After a failed pull: when every pull of the feed has failed for `feedFailingHoursBeforeReport`
 * hours, its owner is mailed once for this streak, in the account's language (a pull that does not
 * fail ends the streak, and the next one is reported again). The feed is marked reported before the
 * mail goes (two pulls never both send it) and unmarked when the mail fails, so the next failed
 * pull tries again. The portal shows the notice from `failing_since` alone.
 */
export async function reportFailingFeed(
  ctx: ServiceContext<StaffActor>,
  feed: { id: string; failingSince: Date | null },
): Promise<boolean> {
  const now = ctx.clock();
  if (!feed.failingSince || now.getTime() - feed.failingSince.getTime() < feedFailingHoursBeforeReport * hourMs) return false;
  const [claimed] = await ctx.db
    .update(listingFeeds)
    .set({ failureReportedAt: now })
    .where(and(eq(listingFeeds.id, feed.id), isNull(listingFeeds.failureReportedAt)))
    .returning({ accountId: listingFeeds.accountId, url: listingFeeds.url });
  if (!claimed) return false;
  try {
    const [account] = await ctx.db
      .select({ email: accounts.email, name: accounts.name, language: accounts.language })
      .from(accounts)
      .where(and(eq(accounts.id, claimed.accountId), eq(accounts.active, true)));
    if (!account) return false;
    await sendAccountMail({
      to: account.email,
      locale: account.language as Locale,
      key: "feed_failing",
      params: { name: account.name, url: claimed.url, hours: feedFailingHoursBeforeReport, link: portalLink(feedsPagePath) },
    });
    return true;
  } catch (error) {
    logger.error("failing feed: the owner's mail could not be sent; the next failed pull tries again", { feedId: feed.id, error });
    await ctx.db
      .update(listingFeeds)
      .set({ failureReportedAt: null })
      .where(and(eq(listingFeeds.id, feed.id), eq(listingFeeds.failureReportedAt, now)));
    return false;
  }
}
