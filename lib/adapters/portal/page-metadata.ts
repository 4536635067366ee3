import type { Metadata } from "next";
import type { Locale } from "@/lib/base/i18n";

/**
 * Title, description and Open Graph of a public page that search engines and link previews may
 * show. Next.js replaces a layout's `openGraph` with a page's as a whole, so each public page gives
 * all of it here, with its canonical address (its path on `metadataBase`, the root layout's APP_URL).
 */
export function publicPageMetadata(page: {
  title: string;
  description: string;
  path: string;
  siteName: string;
  locale: Locale;
  type?: "website" | "article";
  images?: { url: string; width: number; height: number }[];
}): Metadata {
  return {
    title: page.title,
    description: page.description,
    alternates: { canonical: page.path },
    openGraph: {
      type: page.type ?? "website",
      title: page.title,
      description: page.description,
      url: page.path,
      siteName: page.siteName,
      locale: page.locale === "ro" ? "ro_RO" : "en_GB",
      ...(page.images?.length ? { images: page.images } : {}),
    },
  };
}

/** Kept out of search results, its links still followed: the catalog's later pages of results. */
export const notIndexedButFollowed: Metadata["robots"] = { index: false, follow: true };
