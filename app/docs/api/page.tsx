import type { Metadata } from "next";
import { ScalarReference } from "@/components/scalar-reference";
import { fill } from "@/components/fill";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { requestLocale } from "@/lib/adapters/portal/request-locale";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).apiReference.title };
}

/**
 * The API reference: Scalar's (components/scalar-reference.tsx) over the OpenAPI document in the
 * page's language (English is the document as tools read it; Romanian is `?locale=ro`). Its styles
 * are inline, which this path alone allows (lib/adapters/portal/security-headers.ts).
 */
export default async function ApiReferencePage() {
  const locale = await requestLocale();
  const { apiReference } = pageMessages(locale);
  const documentUrl = locale === "en" ? "/api/v1/openapi.json" : `/api/v1/openapi.json?locale=${locale}`;
  return (
    <>
      <h1>{apiReference.title}</h1>
      <p className="muted">{fill(locale, apiReference.intro, { document: <a href={documentUrl}>{documentUrl}</a> })}</p>
      <ScalarReference
        documentUrl={documentUrl}
        serverDescription={apiReference.server}
        loading={apiReference.loading}
        labels={{ search: apiReference.search, copy: apiReference.copy, menu: apiReference.menu }}
      />
    </>
  );
}
