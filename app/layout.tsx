import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { LanguageSwitcher } from "@/components/language-switcher";
import { pageMessages } from "@/lib/platform/i18n/page-messages";
import { requestLocale } from "@/app/locale";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const { site } = pageMessages(await requestLocale());
  return { title: { default: site.name, template: `%s – ${site.name}` }, description: site.description };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await requestLocale();
  const { site } = pageMessages(locale);
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
            <Link href="/docs/api">{site.apiReference}</Link>
          </nav>
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
