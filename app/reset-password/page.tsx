import type { Metadata } from "next";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { NewPasswordForm, RequestLinkForm } from "./forms";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).access.reset.title, robots: { index: false }, referrer: "no-referrer" };
}

export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await searchParams;
  const texts = pageMessages(await requestLocale()).access;
  if (typeof token === "string" && token) {
    return (
      <section className="narrow">
        <h1>{texts.reset.newTitle}</h1>
        <NewPasswordForm token={token.slice(0, 500)} texts={texts} />
      </section>
    );
  }
  return (
    <section className="narrow">
      <h1>{texts.reset.title}</h1>
      <p>{texts.reset.intro}</p>
      <RequestLinkForm texts={texts} />
    </section>
  );
}
