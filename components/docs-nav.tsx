import Link from "next/link";
import type { Guide } from "@/lib/adapters/docs/content";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { ReferenceLink } from "@/components/reference-link";

/**
 * The side navigation of /docs: the search (a plain GET form, so it works without JavaScript), the
 * guides in their order, and the API reference. The current guide's link carries `aria-current`.
 */
export function DocsNav({
  guides,
  current,
  query,
  texts,
}: {
  guides: Guide[];
  current?: string;
  query?: string;
  texts: PageMessages["docs"];
}) {
  return (
    <nav aria-label={texts.navigation} className="docs-nav">
      <form action="/docs" method="get" role="search" className="docs-search">
        <label htmlFor="docs-q">{texts.searchLabel}</label>
        <div className="docs-search-row">
          <input id="docs-q" type="search" name="q" defaultValue={query} maxLength={200} />
          <button type="submit">{texts.searchButton}</button>
        </div>
      </form>
      <p className="nav-heading">{texts.guides}</p>
      <ul>
        {guides.map((guide) => (
          <li key={guide.slug}>
            <Link href={`/docs/${guide.slug}`} aria-current={guide.slug === current ? "page" : undefined}>
              {guide.title}
            </Link>
          </li>
        ))}
        <li>
          <ReferenceLink>{texts.referenceLink}</ReferenceLink>
        </li>
      </ul>
    </nav>
  );
}
