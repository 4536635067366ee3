import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/data-table";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { listActivity } from "@/lib/domain/accounts/list-activity";
import { listOwnKeys } from "@/lib/domain/keys/list-keys";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { activitySentence, activityWho } from "@/lib/adapters/portal/activity-text";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { forwardPaging, givenCursor, pageAt, pageHref } from "@/lib/adapters/portal/paging";
import type { SearchParams } from "@/lib/adapters/portal/search-params";
import { requireAccount } from "@/lib/adapters/portal/session";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).activity.title };
}

const activityPath = "/settings/api/activity";

/** The account's activity, newest first; "More" continues from the cursor, which the address carries. */
export default async function ActivityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const given = givenCursor(await searchParams);
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const t = pageMessages(locale).activity;
  const date = portalDateTime(locale);
  const { page, cursor, refused } = await pageAt(given.cursor, (at) => listActivity({ ctx, input: { cursor: at, limit: 50 } }));
  // A cursor this page did not write (edited or truncated address) is said, not replaced by the first page.
  const cursorRefused = refused || given.malformed;
  const paging = forwardPaging((at) => pageHref(activityPath, {}, at), { cursor, next: page.nextCursor, items: page.items });
  // Keys are named by their names; the list holds revoked and expired keys too.
  const keyNames = new Map((await listOwnKeys({ ctx })).keys.map((key) => [key.id, key.name]));
  return (
    <>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      {cursorRefused ? (
        <p className="notice error" role="alert">
          {t.badCursor} <Link href={activityPath}>{t.newest}</Link>
        </p>
      ) : (
        <section aria-labelledby="activity-heading">
          <h2 id="activity-heading">{t.heading}</h2>
          <DataTable rows={page.items.length} empty={paging.pastLast ? t.emptyMore : t.empty} labelledBy="activity-heading" variant="words">
            <thead>
              <tr>
                <th scope="col">{t.when}</th>
                <th scope="col">{t.what}</th>
                <th scope="col">{t.who}</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((entry) => (
                <tr key={entry.id}>
                  <td className="date">
                    <time dateTime={entry.createdAt.toISOString()}>{date.format(entry.createdAt)}</time>
                  </td>
                  <td className="text">{activitySentence(entry, t, locale)}</td>
                  <td className="text">{activityWho(entry.by, t, keyNames, locale)}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
          {paging.first || paging.next ? (
            <nav className="actions pager" aria-label={t.heading}>
              {paging.first ? <Link href={paging.first}>{t.newest}</Link> : null}
              {paging.next ? <Link href={paging.next}>{t.more}</Link> : null}
            </nav>
          ) : null}
        </section>
      )}
    </>
  );
}
