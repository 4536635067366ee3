import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { ComponentProps } from "react";
import { DocsCodeSample, type SampleValue } from "@/components/docs-code-sample";
import { RefusalTable, ValidationTable } from "@/components/docs-error-tables";
import { DocsNav } from "@/components/docs-nav";
import { DocsSamples, SampleKeyValue } from "@/components/docs-samples";
import { guide, guides, guideSource } from "@/lib/adapters/docs/content";
import { isGuideSlug, type GuideSlug } from "@/lib/adapters/docs/guides";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { sessionContext, signedInAccount } from "@/lib/adapters/portal/session";
import type { SessionAccount } from "@/lib/domain/accounts/session-account";
import { config } from "@/lib/base/config";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { listAccountListings } from "@/lib/domain/listings/list";
import { createDocsKeyAction } from "./actions";
import { guideModules } from "./guide-modules";
import "../../docs.css";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  if (!isGuideSlug(slug)) return {};
  const { title, summary } = guide(await requestLocale(), slug);
  return { title, description: summary };
}

/** The guides' texts that stand for the reader's key, as each sample's language writes them. */
const keyTexts = [
  { text: "$LISTINGS_API_KEY", form: "shell" },
  { text: "process.env.LISTINGS_API_KEY!", form: "typescript" },
  { text: "paste-the-whole-key-here", form: "raw" },
] as const;

/**
 * A listing of the reader's for the samples that act on one, when the guide does not make its own
 * (the quickstart exports the code of the listing it creates): their newest active one, else their newest.
 */
async function readerListingCode(account: SessionAccount, source: string): Promise<string | null> {
  if (!source.includes("LISTING_CODE") || source.includes("export LISTING_CODE")) return null;
  const ctx = await sessionContext(account);
  for (const status of ["active", undefined] as const) {
    const { page } = await listAccountListings({ ctx, input: { query: { status, per_page: 1, cursor: undefined } } });
    if (page.items[0]) return page.items[0].row.code;
  }
  return null;
}

/**
 * What the samples show in place of the guide's own texts: this site's origin for `http://localhost:3000`
 * whoever reads; signed in, the reader's key (made on the page, kept in the tab) and a listing of theirs.
 */
async function sampleValues(slug: GuideSlug, source: string, account: SessionAccount | null): Promise<SampleValue[]> {
  const listingCode = account ? await readerListingCode(account, source) : null;
  return [
    { text: "http://localhost:3000", shown: new URL(config().APP_URL).origin },
    ...keyTexts.map(({ text, form }) => ({ text, shown: <SampleKeyValue key={`${slug}-${form}`} form={form} original={text} /> })),
    ...(listingCode
      ? [
          { text: "$LISTING_CODE", shown: listingCode },
          { text: "process.env.LISTING_CODE!", shown: JSON.stringify(listingCode) },
        ]
      : []),
  ];
}

/** /docs/{slug}: one guide in the request's language, with the guides beside it and its sections' contents. */
export default async function GuidePage({ params }: Props) {
  const { slug } = await params;
  if (!isGuideSlug(slug)) notFound();
  const locale = await requestLocale();
  const { docs, secret } = pageMessages(locale);
  const { headings } = guide(locale, slug);
  const { default: Content } = await guideModules[locale][slug]();
  const account = await signedInAccount();
  const source = guideSource(locale, slug);
  const values = await sampleValues(slug, source, account);
  const content = (
    <Content
      components={{
        pre: (props: ComponentProps<"pre">) => <DocsCodeSample {...props} values={values} texts={secret} />,
        RefusalTable: () => <RefusalTable locale={locale} />,
        ValidationTable: () => <ValidationTable locale={locale} />,
      }}
    />
  );
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
          {source.includes("LISTINGS_API_KEY") ? (
            <DocsSamples
              signedIn={account !== null}
              keyButton={account !== null && config().APP_ENV === "sandbox"}
              loginHref={`/login?next=${encodeURIComponent(`/docs/${slug}`)}`}
              action={createDocsKeyAction}
              texts={docs.samples}
            >
              {content}
            </DocsSamples>
          ) : (
            content
          )}
        </div>
      </article>
    </div>
  );
}
