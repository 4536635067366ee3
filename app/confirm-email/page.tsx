import type { Metadata } from "next";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { ConfirmForm, ResendForm } from "./forms";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).access.confirm.title, robots: { index: false }, referrer: "no-referrer" };
}

const text = (value: string | string[] | undefined) => (typeof value === "string" ? value.slice(0, 500) : "");

export default async function ConfirmEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const texts = pageMessages(await requestLocale()).access;
  const token = text(query.token);
  return (
    <section className="narrow">
      <h1>{texts.confirm.title}</h1>
      {token ? (
        <>
          <p>{texts.confirm.introNoEmail}</p>
          <ConfirmForm token={token} texts={texts.confirm} />
        </>
      ) : (
        <p>{texts.confirm.missing}</p>
      )}
      <h2>{texts.confirm.resendTitle}</h2>
      <ResendForm email={text(query.email)} texts={texts} />
    </section>
  );
}
