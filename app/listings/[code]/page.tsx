import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { baseCurrency } from "@/lib/domain/currency";
import { AppError } from "@/lib/base/errors";
import { getCatalogListing } from "@/lib/domain/listings/get";
import { listPublicPhotos } from "@/lib/domain/media/list-public-photos";
import { ListingPhotos } from "@/components/listing-photos";
import { ReportForm } from "./report-form";
import { format } from "@/lib/base/i18n";
import { listingPath } from "@/lib/base/public-urls";
import { labelOf, type Enumeration } from "@/lib/base/i18n/labels";
import { amenities } from "@/lib/domain/vocabulary/amenities";
import { describeFacts } from "@/lib/domain/vocabulary/describe-facts";
import { FactList } from "@/components/fact-list";
import { pricePeriods } from "@/lib/domain/vocabulary/price-periods";
import { propertyTypes, transactionTypes } from "@/lib/domain/vocabulary/property-types";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { catalogContext } from "@/lib/adapters/portal/session";
import { publicPageMetadata } from "@/lib/adapters/portal/page-metadata";

type Props = { params: Promise<{ code: string }> };

async function load(code: string) {
  await connection();
  try {
    const ctx = await catalogContext();
    const [listing, photos] = await Promise.all([getCatalogListing({ ctx, input: { code } }), listPublicPhotos({ ctx, input: { code } })]);
    return { ...listing, photos };
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

/** Only an active listing has this page (anything else is not found, which Next.js marks noindex): indexed, with its Open Graph card. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const listing = await load((await params).code);
  const locale = await requestLocale();
  const cover = listing.photos[0]?.jpeg1600;
  return publicPageMetadata({
    title: listing.title,
    description: listing.description.slice(0, 160),
    path: listingPath(listing.code),
    siteName: pageMessages(locale).site.name,
    locale,
    type: "article",
    images: cover ? [{ url: cover.url, width: cover.width, height: cover.height }] : [],
  });
}

/** The public page of an active listing: the `url` of every listing and of its events. */
export default async function ListingPage({ params }: Props) {
  const listing = await load((await params).code);
  const locale = await requestLocale();
  const t = pageMessages(locale).listing;
  const label = (list: Enumeration, code: string) => labelOf(list, code, locale);
  const facts = describeFacts({ facts: listing.facts, type: listing.type, locale, words: { yes: t.yes, no: t.no } });
  const price = listing.price_declared ?? (listing.price === null ? null : { amount: listing.price, currency: baseCurrency });
  return (
    <article lang={listing.content_locale ?? "ro"}>
      <h1>{listing.title}</h1>
      <p className="muted">
        {listing.location.city}
        {listing.location.area ? `, ${listing.location.area}` : ""} · {label(propertyTypes, listing.type)} ·{" "}
        {label(transactionTypes, listing.transaction)} · {listing.attribution.lister}
      </p>
      {price && (
        <p>
          <strong>{format(locale, pageMessages(locale).catalog.price, { amount: price.amount, currency: price.currency })}</strong>
          {listing.price_period !== "total" ? ` / ${label(pricePeriods, listing.price_period)}` : ""}
        </p>
      )}
      <ListingPhotos photos={listing.photos} locale={locale} texts={{ heading: t.photos, alt: t.photoAlt }} />
      <p className="pre-wrap">{listing.description}</p>
      <h2 lang={locale}>{t.facts}</h2>
      <FactList facts={facts} />
      {listing.features.length > 0 && (
        <>
          <h2 lang={locale}>{t.features}</h2>
          <ul className="features">
            {listing.features.map((feature) => (
              <li key={feature}>{label(amenities, feature)}</li>
            ))}
          </ul>
        </>
      )}
      <p className="muted" lang={locale}>
        {format(locale, t.code, { code: listing.code })}
      </p>
      <div lang={locale}>
        <ReportForm code={listing.code} texts={t.report} />
      </div>
    </article>
  );
}
