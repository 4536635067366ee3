import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/data-table";
import { ActionButton } from "@/components/forms/action-button";
import { WithCode } from "@/components/with-code";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { lastPullText, reportedFailingFeeds } from "@/lib/adapters/portal/feeds-page";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { requireAccount } from "@/lib/adapters/portal/session";
import { localUrlsAllowed } from "@/lib/base/config";
import { format, type Locale } from "@/lib/base/i18n";
import { pageMessages, type PageMessages } from "@/lib/base/i18n/page-messages";
import type { FeedView } from "@/lib/domain/feeds/fields";
import { feedFailingHoursBeforeReport, maxFeedsPerAccount } from "@/lib/domain/feeds/limits";
import { listFeeds } from "@/lib/domain/feeds/list-feeds";
import { listOwnKeys } from "@/lib/domain/keys/list-keys";
import { pullFeedAction } from "./actions";
import { CreateFeedForm, DeleteFeed } from "./feed-forms";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).feeds.title };
}

/**
 * The account's feed URLs: each with its schedule, its last pull (and the report of the import it
 * made), the notice of a feed failing for a day, Pull now and Delete; then the form adding one,
 * which names the key its imports are written as.
 */
export default async function FeedsPage() {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const t = pageMessages(locale).feeds;
  const [page, own] = await Promise.all([listFeeds({ ctx, input: { per_page: maxFeedsPerAccount } }), listOwnKeys({ ctx })]);
  const feeds = page.items;
  const keys = own.keys.filter((key) => key.status === "active" && key.permissions.includes("listings:write"));
  const when = portalDateTime(locale, "minute");
  const reported = reportedFailingFeeds(feeds, ctx.now);
  return (
    <>
      <p>
        <Link href="/account/listings">{pageMessages(locale).listingImports.back}</Link>
      </p>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      {reported.map((feed) => (
        <p key={feed.id} className="notice warning" role="status">
          <WithCode
            text={format(locale, t.failingNotice, { url: "{url}", hours: feedFailingHoursBeforeReport })}
            placeholder="url"
            code={feed.url}
          />
        </p>
      ))}
      <p className="muted">{format(locale, t.usage, { used: feeds.length, limit: maxFeedsPerAccount })}</p>
      <section>
        <DataTable rows={feeds.length} empty={t.empty} label={t.title} variant="words">
          <thead>
            <tr>
              <th scope="col">{t.url}</th>
              <th scope="col">{t.schedule}</th>
              <th scope="col">{t.lastPull}</th>
              <th scope="col">{t.actionsHeading}</th>
            </tr>
          </thead>
          <tbody>
            {feeds.map((feed) => (
              <tr key={feed.id}>
                <th scope="row">
                  <code>{feed.url}</code>
                </th>
                <td>
                  {t.modes[feed.mode]}
                  <br />
                  {format(locale, t.every, { minutes: feed.interval_minutes, date: when.format(new Date(feed.next_pull_at)) })}
                </td>
                <td>
                  <LastPull feed={feed} t={t} locale={locale} when={when} />
                </td>
                <td>
                  <div className="actions">
                    <ActionButton
                      action={pullFeedAction}
                      fields={{ id: feed.id }}
                      label={t.pullNow}
                      accessibleLabel={format(locale, t.pullNowLabel, { url: feed.url })}
                      pending={t.pullPending}
                    />
                    <DeleteFeed id={feed.id} url={feed.url} texts={t} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      </section>
      <section className="card" aria-labelledby="create-feed">
        <h2 id="create-feed">{t.create.heading}</h2>
        {feeds.length >= maxFeedsPerAccount ? (
          <p className="notice warning">{format(locale, t.create.full, { limit: maxFeedsPerAccount })}</p>
        ) : keys.length === 0 ? (
          <p className="notice">
            <Link href="/settings/api/keys">{t.create.noKey}</Link>
          </p>
        ) : (
          <CreateFeedForm keys={keys.map((key) => ({ id: key.id, name: key.name }))} localUrls={localUrlsAllowed()} texts={t} />
        )}
      </section>
    </>
  );
}

/** The last pull in words: when, what it did, why it failed, the import it made; and whether one is under way. */
function LastPull({ feed, t, locale, when }: { feed: FeedView; t: PageMessages["feeds"]; locale: Locale; when: Intl.DateTimeFormat }) {
  const pull = feed.last_pull;
  const date = pull ? when.format(new Date(pull.at)) : "";
  return (
    <>
      {lastPullText(feed, locale, when)}
      {pull?.import_id ? (
        <>
          {" "}
          <Link href={`/account/listings/imports/${pull.import_id}`} aria-label={format(locale, t.reportLabel, { date })}>
            {t.report}
          </Link>
        </>
      ) : null}
      {feed.failing_since ? (
        <>
          <br />
          <span className="badge bad">{format(locale, t.failingSince, { date: when.format(new Date(feed.failing_since)) })}</span>
        </>
      ) : null}
      {feed.pulling ? (
        <>
          <br />
          <span className="badge">{t.pullingNow}</span>
        </>
      ) : null}
    </>
  );
}
