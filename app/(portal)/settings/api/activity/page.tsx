import type { Metadata } from "next";
import Link from "next/link";
import { requestLocale } from "@/app/locale";
import { listActivity, type ActivityEntry } from "@/lib/domain/accounts/list-activity";
import { listOwnKeys } from "@/lib/domain/keys/list-keys";
import { ValidationError } from "@/lib/base/errors";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import type { KeysetPage } from "@/lib/base/keyset";
import { activitySentence, activityWho } from "@/lib/adapters/portal/activity-text";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { requireAccount } from "@/lib/adapters/portal/session";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).activity.title };
}

const activityPath = "/settings/api/activity";

/** The account's activity, newest first; "More" continues from the cursor, which the address carries. */
export default async function ActivityPage({ searchParams }: { searchParams: Promise<{ cursor?: string | string[] }> }) {
  const { cursor: given } = await searchParams;
  const cursor = typeof given === "string" && given !== "" ? given : undefined;
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const t = pageMessages(locale).activity;
  const date = portalDateTime(locale);
  let page: KeysetPage<ActivityEntry> | null;
  try {
    page = await listActivity({ ctx, input: { cursor, limit: 50 } });
  } catch (error) {
    // A cursor this page did not write (edited or truncated address).
    if (!(error instanceof ValidationError)) throw error;
    page = null;
  }
  // Keys are named by their names; the list holds revoked and expired keys too.
  const keyNames = new Map((await listOwnKeys({ ctx })).keys.map((key) => [key.id, key.name]));
  return (
    <>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      {page === null ? (
        <p className="notice error" role="alert">
          {t.badCursor} <Link href={activityPath}>{t.newest}</Link>
        </p>
      ) : page.items.length === 0 && !cursor ? (
        <p className="empty">{t.empty}</p>
      ) : (
        <section aria-labelledby="activity-heading">
          <h2 id="activity-heading">{t.heading}</h2>
          <div className="table-wrap" role="region" aria-labelledby="activity-heading" tabIndex={0}>
            <table className="data portal-table">
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
                    <td className="text">{activitySentence(entry, t)}</td>
                    <td className="text">{activityWho(entry.by, t, keyNames)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {cursor || page.nextCursor ? (
            <nav className="actions pager" aria-label={t.heading}>
              {cursor ? <Link href={activityPath}>{t.newest}</Link> : null}
              {page.nextCursor ? <Link href={`${activityPath}?cursor=${encodeURIComponent(page.nextCursor)}`}>{t.more}</Link> : null}
            </nav>
          ) : null}
        </section>
      )}
    </>
  );
}
