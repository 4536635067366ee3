import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { ListingCard } from "@/components/listing-card";
import { Field } from "@/components/forms/form-kit";
import { catalogQuery, listCatalog, type CatalogQuery } from "@/lib/domain/listings/list";
import { itemOf } from "@/lib/domain/listings/read-shape";
import { listCoverPhotos } from "@/lib/domain/media/list-public-photos";
import type { Enumeration } from "@/lib/base/i18n/labels";
import { propertyTypes, transactionTypes } from "@/lib/domain/vocabulary/property-types";
import type { ServiceContext } from "@/lib/base/context";
import type { Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { refusalState, type FormState } from "@/lib/adapters/portal/form-state";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { catalogContext } from "@/lib/adapters/portal/session";
import { givenValues, type SearchParams } from "@/lib/adapters/portal/search-params";
import { givenCursor, pageAt, pageHref, twoWayPaging } from "@/lib/adapters/portal/paging";
import { notIndexedButFollowed, publicPageMetadata } from "@/lib/adapters/portal/page-metadata";
import "./catalog.css";

type Props = { searchParams: Promise<SearchParams> };

/** The catalog's filters the page offers; its links also keep `per_page` (the API's, not offered as a field). */
const filterNames = ["type", "transaction", "city", "price_min", "price_max", "rooms_min", "per_page"] as const;

/**
 * The catalog's answer to the values given, as the API's: refused values as field errors in the
 * page's language, and a cursor that no longer parses (an old link) as the first page.
 */
async function search(ctx: ServiceContext, values: Record<string, string>, given: ReturnType<typeof givenCursor>, locale: Locale) {
  let query: CatalogQuery;
  try {
    query = parseOrThrow(catalogQuery, values, "query");
  } catch (error) {
    return { state: refusalState(error, locale, values), found: undefined, staleCursor: false };
  }
  const { page: found, refused } = await pageAt(given.cursor, (cursor) => listCatalog({ ctx, input: { query: { ...query, cursor } } }));
  return { state: { values } as FormState, found, staleCursor: refused || given.malformed };
}

/**
 * The catalog's first page is a public page like the home page; a later page of results (with a
 * cursor) changes with every new listing and repeats what the listings' own pages say, so it is kept
 * out of search results while its links are still followed.
 */
export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const locale = await requestLocale();
  const { catalog: t, site } = pageMessages(locale);
  const page = publicPageMetadata({ title: t.title, description: t.description, path: "/listings", siteName: site.name, locale });
  return (await searchParams).cursor === undefined ? page : { ...page, robots: notIndexedButFollowed };
}

/**
 * The public catalog (`GET /listings` in the browser): the API's filters and validator, its order
 * (newest change first) and cursors, in a GET form, so a search is a link to share. Shown to anyone.
 */
export default async function CatalogPage({ searchParams }: Props) {
  await connection();
  const locale = await requestLocale();
  const t = pageMessages(locale).catalog;
  const given = await searchParams;
  const values = givenValues(given, filterNames);
  const ctx = await catalogContext();

  const { state, found, staleCursor } = await search(ctx, values, givenCursor(given), locale);
  const items = found?.page.items.map(itemOf) ?? [];
  const covers = await listCoverPhotos({ ctx, input: { codes: items.map((item) => item.code) } });
  // The links keep the filters, in the form's order (`values` holds only those given).
  const paging = twoWayPaging((cursor) => pageHref("/listings", values, cursor), found?.page);

  return (
    <>
      <h1>{t.title}</h1>
      <form method="get" action="/listings" className="catalog-filters" aria-label={t.filters}>
        <ChoiceField name="type" label={t.type} any={t.any} list={propertyTypes} value={values.type} locale={locale} />
        <ChoiceField
          name="transaction"
          label={t.transaction}
          any={t.any}
          list={transactionTypes}
          value={values.transaction}
          locale={locale}
        />
        <Field name="city" label={t.city} hint={t.cityHint} state={state} autoComplete="address-level2" />
        <Field name="price_min" label={t.priceMin} state={state} inputMode="numeric" />
        <Field name="price_max" label={t.priceMax} state={state} inputMode="numeric" />
        <Field name="rooms_min" label={t.roomsMin} state={state} inputMode="numeric" />
        <div className="catalog-actions">
          <button type="submit">{t.submit}</button>
          <Link href="/listings">{t.reset}</Link>
        </div>
      </form>
      {state.message && (
        <p className="notice error" role="alert">
          {state.message}
        </p>
      )}
      {staleCursor && <p className="notice warning">{t.badCursor}</p>}
      {found && (
        <section aria-labelledby="results">
          <h2 id="results">{t.results}</h2>
          {items.length === 0 ? (
            <p>{t.empty}</p>
          ) : (
            <ul className="listing-cards">
              {items.map((item) => (
                <li key={item.code}>
                  <ListingCard item={item} cover={covers.get(item.code)} locale={locale} texts={t} />
                </li>
              ))}
            </ul>
          )}
          <nav className="paging" aria-label={t.results}>
            {paging.previous && <Link href={paging.previous}>{t.previous}</Link>}
            {paging.first && <Link href={paging.first}>{t.first}</Link>}
            {paging.next && <Link href={paging.next}>{t.more}</Link>}
          </nav>
        </section>
      )}
    </>
  );
}

/** A vocabulary list as a select, its labels in the page's language, "any" first (the filter left out). */
function ChoiceField(props: { name: string; label: string; any: string; list: Enumeration; value: string | undefined; locale: Locale }) {
  return (
    <div className="field">
      <label htmlFor={props.name}>{props.label}</label>
      <select id={props.name} name={props.name} defaultValue={props.value ?? ""}>
        <option value="">{props.any}</option>
        {props.list.entries.map((entry) => (
          <option key={entry.code} value={entry.code}>
            {entry.labels[props.locale]}
          </option>
        ))}
      </select>
    </div>
  );
}
