import Link from "next/link";
import { fill } from "@/components/fill";
import { pageMessages } from "@/lib/platform/i18n/page-messages";
import { requestLocale } from "@/app/locale";

export default async function Home() {
  const { site, home } = pageMessages(await requestLocale());
  return (
    <>
      <h1>{site.name}</h1>
      <p>{fill(home.intro, { api: <code>/api/v1</code> })}</p>
      <ul>
        <li>
          <Link href="/docs/api">{home.reference}</Link>{" "}
          {fill(home.referenceSource, { document: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> })}
        </li>
        <li>
          <Link href="/api/v1/schema" prefetch={false}>
            {home.vocabulary}
          </Link>{" "}
          {fill(home.vocabularyNote, { endpoint: <code>GET /api/v1/schema</code> })}
        </li>
      </ul>
    </>
  );
}
