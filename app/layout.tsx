import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { LanguageSwitcher } from "@/components/language-switcher";
import { LocaleProvider } from "@/components/locale-provider";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { logOut } from "@/app/login/actions";
import { chooseLocale } from "@/app/locale-action";
import { format } from "@/lib/base/i18n";
import { signedInAccount } from "@/lib/adapters/portal/session";
import { config } from "@/lib/base/config";
import "./globals.css";
import { ReferenceLink } from "@/components/reference-link";
import "@/components/ui.css";

export async function generateMetadata(): Promise<Metadata> {
  const locale = await requestLocale();
  const { site } = pageMessages(locale);
  return {
    // Relative addresses (canonical, Open Graph, photos kept in the local store) resolve against the public origin.
    metadataBase: new URL(config().APP_URL),
    title: { default: site.name, template: `%s – ${site.name}` },
    description: site.description,
    // What every page's link preview shares; the home page, the catalog and a listing's page give their own card (publicPageMetadata).
    openGraph: { type: "website", siteName: site.name, locale: locale === "ro" ? "ro_RO" : "en_GB" },
  };
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
            <Link href="/docs">{site.docs}</Link>
            <ReferenceLink>{site.apiReference}</ReferenceLink>
            {account ? <Link href="/settings/api/keys">{shell.apiSettings}</Link> : null}
          </nav>
          {account ? (
            <div className="account-menu" aria-label={shell.accountMenu} role="group">
              <span className="who">
                <Link href="/account">{account.name}</Link>
                {account.agency ? (
                  <span className="agency">
                    {format(locale, shell.agencyRole, { agency: account.agency.name, role: shell.roles[account.agency.role] })}
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
            action={chooseLocale}
            current={locale}
            label={site.language}
            names={{ ro: pageMessages("ro").site.switchTo, en: pageMessages("en").site.switchTo }}
            account={account ? { label: site.accountLanguage, hint: site.accountLanguageHint } : undefined}
          />
        </header>
        <main id="main" tabIndex={-1}>
          <LocaleProvider locale={locale} errorTexts={{ errorTitle: shell.errorTitle, errorText: shell.errorText, retry: shell.retry }}>
            {children}
          </LocaleProvider>
        </main>
      </body>
    </html>
  );
}
