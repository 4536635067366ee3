import Link from "next/link";
import { ImportStatus } from "@/components/import-status";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import type { PortalSession } from "@/lib/adapters/portal/session";
import { format, type Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { maxFeedsPerAccount } from "@/lib/domain/feeds/limits";
import { listFeeds } from "@/lib/domain/feeds/list-feeds";
import { listImports } from "@/lib/domain/imports/list-imports";

/** How many of the latest imports the section shows. */
const shown = 10;

/**
 * The account's latest bulk imports: state, counts, when sent, whether a feed made it (its host,
 * linking to the Feeds page), and a link to each one's line results.
 */
export async function ImportsSection({ ctx, locale }: { ctx: PortalSession["ctx"]; locale: Locale }) {
  const t = pageMessages(locale).listingImports;
  // Every feed of the account fits in one page: their hosts name the imports they made.
  const [{ items: imports }, feeds] = await Promise.all([
    listImports({ ctx, input: { per_page: shown } }),
    listFeeds({ ctx, input: { per_page: maxFeedsPerAccount } }),
  ]);
  const hostOf = new Map(feeds.items.map((feed) => [feed.id, new URL(feed.url).host]));
  const when = portalDateTime(locale, "minute");
  return (
    <section aria-labelledby="imports">
      <h2 id="imports">{t.section}</h2>
      <p>{t.sectionIntro}</p>
      {imports.length === 0 ? (
        <p className="empty">{t.none}</p>
      ) : (
        <ul className="imports">
          {imports.map((item) => {
            const date = when.format(item.createdAt);
            const host = item.feedId ? hostOf.get(item.feedId) : undefined;
            return (
              <li key={item.id}>
                <ImportStatus locale={locale} item={item} />
                <br />
                {format(locale, t.sent, { date })}{" "}
                {host ? (
                  <>
                    <Link href="/account/listings/feeds">{format(locale, t.fromFeed, { host })}</Link>{" "}
                  </>
                ) : item.feedId ? (
                  <>{t.fromDeletedFeed} </>
                ) : null}
                <Link href={`/account/listings/imports/${item.id}`} aria-label={format(locale, t.openLabel, { date })}>
                  {t.open}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
