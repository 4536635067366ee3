import type { Metadata } from "next";
import Link from "next/link";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { firstValue, type SearchParams } from "@/lib/adapters/portal/search-params";
import { forwardPaging, givenCursor, pageHref } from "@/lib/adapters/portal/paging";
import { listModerationQueue } from "@/lib/domain/listings/moderation-queue";
import { countOpenReports } from "@/lib/domain/listings/reports";
import { labelOf } from "@/lib/base/i18n/labels";
import { propertyTypes, transactionTypes } from "@/lib/domain/vocabulary/property-types";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { reviewPath } from "@/lib/adapters/portal/moderation-pages";
import { requireModerator } from "@/lib/adapters/portal/session";

type Props = { searchParams: Promise<SearchParams> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).moderation.queue.title };
}

/**
 * The moderation queue for moderators (anyone else: not found): new listings and edits of published
 * ones, the longest waiting first, each opening its review; counts of what waits and of open reports.
 */
export default async function ModerationQueuePage({ searchParams }: Props) {
  const { ctx } = await requireModerator();
  const given = await searchParams;
  const { cursor } = givenCursor(given);
  const locale = await requestLocale();
  const t = pageMessages(locale).moderation;
  const [queue, reports] = await Promise.all([listModerationQueue({ ctx, input: { cursor } }), countOpenReports({ ctx })]);
  const date = portalDateTime(locale);
  const paging = forwardPaging((at) => pageHref("/moderation", {}, at), { cursor, next: queue.next, items: queue.items });
  return (
    <>
      <h1>{t.queue.title}</h1>
      <p>{t.queue.intro}</p>
      {firstValue(given.decided) ? (
        <p className="notice success" role="status">
          {t.review.done}
        </p>
      ) : null}
      <p className="muted">
        {format(locale, t.queue.counts, { pending: queue.counts.pending, edits: queue.counts.edits, reports })}{" "}
        <Link href="/moderation/reports">{t.reportsLink}</Link>
      </p>
      {queue.items.length === 0 ? (
        // Past the last item (a page reached by a cursor whose items have all been decided since) is not an empty queue.
        <p className="empty">{paging.pastLast ? t.queue.emptyMore : t.queue.empty}</p>
      ) : (
        <ol className="plain">
          {queue.items.map((item) => (
            <li key={item.code} className="card" aria-labelledby={`queue-${item.code}`}>
              <h2 id={`queue-${item.code}`}>
                <Link href={reviewPath(item.code)}>{item.title}</Link>
              </h2>
              <p>
                <span className={item.kind === "new" ? "badge" : "badge warn"}>
                  {item.kind === "new" ? t.queue.kindNew : t.queue.kindEdit}
                </span>
                {item.own ? <span className="badge bad">{t.queue.own}</span> : null}
              </p>
              <p className="muted">
                {item.city} · {labelOf(propertyTypes, item.type, locale)} · {labelOf(transactionTypes, item.transaction, locale)} ·{" "}
                {item.lister} · {format(locale, t.queue.since, { date: date.format(item.since) })}
              </p>
            </li>
          ))}
        </ol>
      )}
      {paging.first || paging.next ? (
        <p className="actions">
          {paging.first ? <Link href={paging.first}>{t.queue.first}</Link> : null}
          {paging.next ? <Link href={paging.next}>{t.queue.more}</Link> : null}
        </p>
      ) : null}
    </>
  );
}
