import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RefusalTable, ValidationTable } from "@/components/docs-error-tables";
import { DocsNav } from "@/components/docs-nav";
import { guide, guides } from "@/lib/adapters/docs/content";
import { isGuideSlug } from "@/lib/adapters/docs/guides";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { guideModules } from "./guide-modules";
import "../../docs.css";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  if (!isGuideSlug(slug)) return {};
  const { title, summary } = guide(await requestLocale(), slug);
  return { title, description: summary };
}

/** /docs/{slug}: one guide in the request's language, with the guides beside it and its sections' contents. */
export default async function GuidePage({ params }: Props) {
  const { slug } = await params;
  if (!isGuideSlug(slug)) notFound();
  const locale = await requestLocale();
  const { docs } = pageMessages(locale);
  const { headings } = guide(locale, slug);
  const { default: Content } = await guideModules[locale][slug]();
  return (
    <div className="docs">
      <DocsNav guides={guides(locale)} current={slug} texts={docs} />
      <article className="docs-content docs-article">
        {headings.length > 0 ? (
          <nav aria-labelledby="docs-toc" className="docs-toc">
            <p id="docs-toc" className="nav-heading">
              {docs.onThisPage}
            </p>
            <ol>
              {headings
                .filter((heading) => heading.depth === 2)
                .map((heading) => (
                  <li key={heading.id}>
                    <a href={`#${heading.id}`}>{heading.text}</a>
                  </li>
                ))}
            </ol>
          </nav>
        ) : null}
        <div className="docs-body">
          <Content
            components={{
              RefusalTable: () => <RefusalTable locale={locale} />,
              ValidationTable: () => <ValidationTable locale={locale} />,
            }}
          />
        </div>
      </article>
    </div>
  );
}
