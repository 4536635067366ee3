import type { Metadata } from "next";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { requireAccount } from "@/lib/adapters/portal/session";
import { PasswordForm } from "./password-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).account.title };
}

export default async function AccountPage({ searchParams }: { searchParams: Promise<{ notice?: string | string[] }> }) {
  const { notice } = await searchParams;
  const { account } = await requireAccount();
  const locale = await requestLocale();
  const texts = pageMessages(locale);
  const { account: page, shell } = texts;
  return (
    <>
      <h1>{page.title}</h1>
      {notice === "password_changed" ? (
        <p className="notice success" role="status">
          {page.password.done}
        </p>
      ) : null}
      <section className="card" aria-labelledby="profile">
        <h2 id="profile">{page.profile}</h2>
        <dl className="facts">
          <dt>{page.name}</dt>
          <dd>{account.name}</dd>
          <dt>{page.email}</dt>
          <dd>{account.email}</dd>
          <dt>{page.agency}</dt>
          <dd>
            {account.agency
              ? format(locale, shell.agencyRole, { agency: account.agency.name, role: shell.roles[account.agency.role] })
              : page.noAgency}
          </dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="password">
        <h2 id="password">{page.password.title}</h2>
        <p>{page.password.intro}</p>
        <PasswordForm texts={page.password} hint={texts.access.passwordHint} />
      </section>
    </>
  );
}
