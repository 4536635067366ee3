import type { Metadata } from "next";
import Link from "next/link";
import { fill } from "@/components/fill";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { publicPageMetadata } from "@/lib/adapters/portal/page-metadata";

export async function generateMetadata(): Promise<Metadata> {
  const locale = await requestLocale();
  const { site } = pageMessages(locale);
  // The root layout's title template would repeat the site's name: the home page's title is the name alone.
  return {
    ...publicPageMetadata({ title: site.name, description: site.description, path: "/", siteName: site.name, locale }),
    title: { absolute: site.name },
  };
}

export default async function Home() {
  const locale = await requestLocale();
  const { site, home } = pageMessages(locale);
  return (
    <>
      <h1>{site.name}</h1>
      <p>{fill(locale, home.intro, { api: <code>/api/v1</code> })}</p>
      <ul>
        <li>
          <Link href="/docs/api">{home.reference}</Link>{" "}
          {fill(locale, home.referenceSource, { document: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> })}
        </li>
        <li>
          <Link href="/api/v1/schema" prefetch={false}>
            {home.vocabulary}
          </Link>{" "}
          {fill(locale, home.vocabularyNote, { endpoint: <code>GET /api/v1/schema</code> })}
        </li>
      </ul>
    </>
  );
}
