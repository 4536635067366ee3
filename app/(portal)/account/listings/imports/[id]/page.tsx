import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/data-table";
import { notFound } from "next/navigation";
import { ImportStatus } from "@/components/import-status";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { requireAccount, type PortalSession } from "@/lib/adapters/portal/session";
import { AppError } from "@/lib/base/errors";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { getImport, importIdParams, importResultsQuery } from "@/lib/domain/imports/get-import";
import { renderResult } from "@/lib/domain/imports/render";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** One of the account's imports with a page of line results; anything else is a 404, as in the API. */
async function ownImport(ctx: PortalSession["ctx"], id: string, after: unknown) {
  const parsedId = importIdParams.safeParse({ id });
  // An `after` that is no line number (an edited link) is the first page.
  const query = importResultsQuery.safeParse({ after, limit: "100" });
  if (!parsedId.success) notFound();
  try {
    return await getImport({ ctx, input: { id, ...(query.success ? query.data : { limit: 100 }) } });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const found = await ownImport(ctx, (await params).id, undefined);
  return { title: format(locale, pageMessages(locale).listingImports.title, { date: portalDateTime(locale).format(found.createdAt) }) };
}

/**
 * An import's counts and its line results, 100 a page in line order (`after`, as in the API): each
 * refused line with its problem and field errors in the page's language.
 */
export default async function ImportPage({ params, searchParams }: Props) {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const t = pageMessages(locale).listingImports;
  const id = (await params).id;
  const given = await searchParams;
  const found = await ownImport(ctx, id, typeof given.after === "string" ? given.after : undefined);
  const date = portalDateTime(locale).format(found.createdAt);
  const results = found.results.map((row) => renderResult(row, locale));
  return (
    <>
      <p>
        <Link href="/account/listings">{t.back}</Link>
      </p>
      <h1>{format(locale, t.title, { date })}</h1>
      <p role="status">
        <ImportStatus locale={locale} item={found} />
      </p>
      <section aria-labelledby="results">
        <h2 id="results">{t.results}</h2>
        <DataTable rows={results.length} empty={t.noResults} labelledBy="results">
          <thead>
            <tr>
              <th scope="col">{t.line}</th>
              <th scope="col">{t.ref}</th>
              <th scope="col">{t.outcome}</th>
              <th scope="col">{t.listing}</th>
              <th scope="col">{t.why}</th>
            </tr>
          </thead>
          <tbody>
            {results.map((result) => (
              <tr key={result.line ?? `withdrawn ${result.code}`}>
                <th scope="row">{result.line ?? "—"}</th>
                <td>{result.external_ref ?? "—"}</td>
                <td>{t.outcomes[result.outcome]}</td>
                <td>{result.code ? <Link href={`/account/listings/${result.code}`}>{result.code}</Link> : "—"}</td>
                <td>
                  {result.detail ? <p>{result.detail}</p> : null}
                  {result.errors.length > 0 ? (
                    <ul>
                      {result.errors.map((error) => (
                        <li key={`${error.pointer} ${error.code}`}>
                          <code>{error.pointer}</code> {error.detail}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
        <nav className="paging" aria-label={t.results}>
          {given.after ? <Link href={`/account/listings/imports/${id}`}>{t.first}</Link> : null}
          {found.next ? <Link href={`/account/listings/imports/${id}?after=${found.next}`}>{t.next}</Link> : null}
        </nav>
      </section>
    </>
  );
}
