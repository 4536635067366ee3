import type { Metadata } from "next";
import Link from "next/link";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { givenValues, type SearchParams } from "@/lib/adapters/portal/search-params";
import { Field } from "@/components/forms/form-kit";
import { countAccountListings } from "@/lib/domain/listings/count-by-status";
import { accountListingsQuery, accountListingsSearch, listAccountListings } from "@/lib/domain/listings/list";
import { listOwnCoverPhotos } from "@/lib/domain/media/list-own-cover-photos";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { refusalState, type FormState } from "@/lib/adapters/portal/form-state";
import { givenCursor, pageAt, pageHref, twoWayPaging } from "@/lib/adapters/portal/paging";
import { requireAccount, type PortalSession } from "@/lib/adapters/portal/session";
import { ImportsSection } from "./imports-section";
import { ListingRow } from "./listing-row";
import { rowTokenBinding } from "./row-token";
import { formToken } from "@/lib/adapters/portal/csrf";

type Props = { searchParams: Promise<SearchParams> };

/** What the page's links keep; `per_page` is the API's (not offered as a field), 20 unless given. */
const filterNames = ["status", "q", "per_page"] as const;
const pageQuery = accountListingsQuery.extend({ q: accountListingsSearch.optional() });

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).myListings.title };
}

/**
 * The listings the signed-in account manages, as `GET /account/listings` gives them (its agency's
 * too for an owner or admin; newest change first; its cursors), with a state filter and a text
 * search in a GET form, so a view is a link. Unconfirmed listings are counted at the top.
 */
export default async function MyListingsPage({ searchParams }: Props) {
  const { account, ctx } = await requireAccount();
  const locale = await requestLocale();
  const t = pageMessages(locale).myListings;
  const given = await searchParams;
  const values = givenValues(given, filterNames);

  const [counts, { state, found, staleCursor }] = await Promise.all([
    countAccountListings({ ctx }),
    search(ctx, values, givenCursor(given), locale),
  ]);
  const total = Object.values(counts.byStatus).reduce((sum, n) => sum + n, 0);
  const rows = found?.page.items ?? [];
  const covers = await listOwnCoverPhotos({ ctx, input: { codes: rows.map((listed) => listed.row.code) } });
  // The links keep the filters, in the form's order (`values` holds only those given).
  const paging = twoWayPaging((cursor) => pageHref("/account/listings", values, cursor), found?.page);

  return (
    <>
      <h1>{t.title}</h1>
      <p>{account.agency && account.agency.role !== "agent" ? format(locale, t.agencyIntro, { agency: account.agency.name }) : t.intro}</p>
      <p>
        <Link href="/account/listings/new">{t.create}</Link>
      </p>
      {counts.byStatus.unconfirmed > 0 ? (
        <p className="notice warning" role="status">
          {format(locale, t.unconfirmedNotice, { count: counts.byStatus.unconfirmed })}{" "}
          <Link href="/account/listings?status=unconfirmed">{t.unconfirmedShow}</Link>
        </p>
      ) : null}
      {counts.confirmationDue > 0 ? (
        <p className="notice warning" role="status">
          {format(locale, t.dueNotice, { count: counts.confirmationDue })} <Link href="/account/listings?status=active">{t.dueShow}</Link>
        </p>
      ) : null}
      {total === 0 ? (
        <section className="empty" aria-labelledby="no-listings">
          <h2 id="no-listings">{t.emptyTitle}</h2>
          <p>{t.emptyText}</p>
          <p>
            <Link href="/account/listings/new">{t.emptyCreate}</Link>
          </p>
        </section>
      ) : (
        <>
          <form method="get" action="/account/listings" className="catalog-filters" aria-label={t.filters}>
            <div className="field">
              <label htmlFor="status">{t.status}</label>
              <select id="status" name="status" defaultValue={values.status ?? ""}>
                <option value="">{format(locale, t.allStatuses, { count: total })}</option>
                {(Object.keys(counts.byStatus) as (keyof typeof counts.byStatus)[]).map((status) => (
                  <option key={status} value={status}>
                    {format(locale, t.statusCount, { status: t.statuses[status], count: counts.byStatus[status] })}
                  </option>
                ))}
              </select>
            </div>
            <Field name="q" label={t.search} hint={t.searchHint} state={state} type="search" />
            {values.per_page ? <input type="hidden" name="per_page" value={values.per_page} /> : null}
            <div className="catalog-actions">
              <button type="submit">{t.submit}</button>
              <Link href="/account/listings">{t.reset}</Link>
            </div>
          </form>
          {state.message ? (
            <p className="notice error" role="alert">
              {state.message}
            </p>
          ) : null}
          {staleCursor ? <p className="notice warning">{t.badCursor}</p> : null}
          {found ? (
            <section aria-labelledby="results">
              <h2 id="results">{t.results}</h2>
              {rows.length === 0 ? (
                <p className="empty">{t.noMatch}</p>
              ) : (
                <ul className="listing-cards">
                  {rows.map((listed) => (
                    <li key={listed.row.code}>
                      <ListingRow
                        listed={listed}
                        cover={covers.get(listed.row.code)}
                        token={formToken(account, rowTokenBinding, { code: listed.row.code })}
                        now={ctx.now}
                        locale={locale}
                        texts={t}
                      />
                    </li>
                  ))}
                </ul>
              )}
              <nav className="paging" aria-label={t.results}>
                {paging.first ? <Link href={paging.first}>{t.first}</Link> : null}
                {paging.previous ? <Link href={paging.previous}>{t.previous}</Link> : null}
                {paging.next ? <Link href={paging.next}>{t.next}</Link> : null}
              </nav>
            </section>
          ) : null}
        </>
      )}
      <ImportsSection ctx={ctx} locale={locale} />
    </>
  );
}

/**
 * The listings for the values given, validated as the API validates its query: a refused value is a
 * field error in the page's language; a cursor that no longer parses (an old link) is the first page.
 */
async function search(
  ctx: PortalSession["ctx"],
  values: Record<string, string>,
  given: ReturnType<typeof givenCursor>,
  locale: Awaited<ReturnType<typeof requestLocale>>,
) {
  let query;
  try {
    query = parseOrThrow(pageQuery, { per_page: "20", ...values }, "query");
  } catch (error) {
    return { state: refusalState(error, locale, values), found: undefined, staleCursor: false };
  }
  const { q, ...listQuery } = query;
  const state: FormState = { values };
  const { page: found, refused } = await pageAt(given.cursor, (cursor) =>
    listAccountListings({ ctx, input: { query: { ...listQuery, cursor }, search: q } }),
  );
  return { state, found, staleCursor: refused || given.malformed };
}
