import { format, type Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import type { FeedView } from "@/lib/domain/feeds/fields";
import { feedFailingHoursBeforeReport } from "@/lib/domain/feeds/limits";

const hourMs = 3_600_000;

/** The feeds the Feeds page warns about: every pull failing for a day or more, as the owner's mail says. */
export const reportedFailingFeeds = (feeds: readonly FeedView[], now: Date): FeedView[] =>
  feeds.filter((feed) => feed.failing_since && now.getTime() - Date.parse(feed.failing_since) >= feedFailingHoursBeforeReport * hourMs);

/** A feed's last pull in the page's words: when, what it did and, failed, why (the server's status, or the error's own words). */
export function lastPullText(feed: FeedView, locale: Locale, when: Intl.DateTimeFormat): string {
  const t = pageMessages(locale).feeds;
  const pull = feed.last_pull;
  if (!pull) return t.never;
  const code = pull.error_code ?? "";
  const error = Object.hasOwn(t.errors, code)
    ? format(locale, t.errors[code as keyof typeof t.errors], { status: pull.http_status ?? "", code })
    : format(locale, t.errors.other, { code });
  return format(locale, t.outcomes[pull.outcome], { date: when.format(new Date(pull.at)), error });
}
