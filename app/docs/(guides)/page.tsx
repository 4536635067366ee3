import type { Metadata } from "next";
import Link from "next/link";
import { DocsNav } from "@/components/docs-nav";
import { fill } from "@/components/fill";
import { guides } from "@/lib/adapters/docs/content";
import { searchGuides } from "@/lib/adapters/docs/search";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import "../docs.css";
import { ReferenceLink } from "@/components/reference-link";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).docs.title };
}

/** /docs: the guides in the request's language, or, with `?q=`, the guides that contain the words searched. */
export default async function DocsIndexPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const locale = await requestLocale();
  const { docs } = pageMessages(locale);
  const q = (await searchParams).q;
  const query = (Array.isArray(q) ? q[0] : q)?.trim().slice(0, 200) ?? "";
  const all = guides(locale);
  const results = query ? searchGuides(locale, query) : null;
  return (
    <div className="docs">
      <DocsNav guides={all} query={query} texts={docs} />
      <div className="docs-content">
        <h1>{docs.title}</h1>
        {results ? (
          <section aria-labelledby="docs-results">
            <h2 id="docs-results">{format(locale, docs.results, { count: results.length, query })}</h2>
            <ol className="docs-results">
              {results.map((result) => (
                <li key={result.guide.slug}>
                  <Link href={`/docs/${result.guide.slug}${result.heading ? `#${result.heading.id}` : ""}`}>
                    {result.guide.title}
                    {result.heading ? ` › ${result.heading.text}` : null}
                  </Link>
                  <p>{result.snippet}</p>
                </li>
              ))}
            </ol>
            <p>
              <Link href="/docs">{docs.clearSearch}</Link>
            </p>
          </section>
        ) : (
          <>
            <p className="muted">{fill(locale, docs.intro, { reference: <ReferenceLink>{docs.reference}</ReferenceLink> })}</p>
            <ul className="docs-cards">
              {all.map((guide) => (
                <li key={guide.slug} className="card">
                  <h2>
                    <Link href={`/docs/${guide.slug}`}>{guide.title}</Link>
                  </h2>
                  <p>{guide.summary}</p>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}
