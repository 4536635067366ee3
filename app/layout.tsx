import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { LanguageSwitcher } from "@/components/language-switcher";
import { pageMessages } from "@/lib/platform/i18n/page-messages";
import { requestLocale } from "@/app/locale";
import { logOut } from "@/app/login/actions";
import { format } from "@/lib/platform/i18n";
import { signedInAccount } from "@/lib/portal/session";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const { site } = pageMessages(await requestLocale());
  return { title: { default: site.name, template: `%s – ${site.name}` }, description: site.description };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [locale, account] = await Promise.all([requestLocale(), signedInAccount()]);
  const { site, shell, access } = pageMessages(locale);
  return (
    <html lang={locale}>
      <body>
        <a className="skip-link" href="#main">
          {site.skipToContent}
        </a>
        <header className="site">
          <Link href="/" className="brand">
            {site.name}
          </Link>
          <nav aria-label={site.navigation}>
            <Link href="/">{site.home}</Link>
            <Link href="/listings">{site.listings}</Link>
            <Link href="/docs/api">{site.apiReference}</Link>
            {account ? <Link href="/settings/api/keys">{shell.apiSettings}</Link> : null}
          </nav>
          {account ? (
            <div className="account-menu" aria-label={shell.accountMenu} role="group">
              <span className="who">
                <Link href="/account">{account.name}</Link>
                {account.agency ? (
                  <span className="agency">
                    {format(shell.agencyRole, { agency: account.agency.name, role: shell.roles[account.agency.role] })}
                  </span>
                ) : null}
              </span>
              <form action={logOut}>
                <button type="submit" className="link-button">
                  {access.signOut}
                </button>
              </form>
            </div>
          ) : (
            <div className="account-menu">
              <Link href="/login">{shell.signIn}</Link>
              <Link href="/signup">{shell.signUp}</Link>
            </div>
          )}
          <LanguageSwitcher
            current={locale}
            label={site.language}
            names={{ ro: pageMessages("ro").site.switchTo, en: pageMessages("en").site.switchTo }}
          />
        </header>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </body>
    </html>
  );
}
