import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference";
import { fill } from "@/components/fill";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { requestLocale } from "@/lib/adapters/portal/request-locale";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).apiReference.title };
}

export default async function ApiReferencePage() {
  const locale = await requestLocale();
  const { apiReference } = pageMessages(locale);
  return (
    <>
      <h1>{apiReference.title}</h1>
      <p className="muted">{fill(locale, apiReference.intro, { document: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> })}</p>
      <ApiReference specUrl="/api/v1/openapi.json" labels={apiReference} />
    </>
  );
}
