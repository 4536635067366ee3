import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = { title: "Listings platform", description: "Publish real-estate listings by API and in the portal." };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="ro">
      <body>
        <header className="site">
          <strong>
            <Link href="/">Listings platform</Link>
          </strong>
          <Link href="/docs/api">API reference</Link>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
