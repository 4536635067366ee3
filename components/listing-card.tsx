import Link from "next/link";
import { ListingCover } from "@/components/listing-cover";
import type { ListingItem } from "@/lib/domain/listings/schemas";
import type { PublicPhoto } from "@/lib/domain/media/list-public-photos";
import { labelOf, type Enumeration } from "@/lib/base/i18n/labels";
import { pricePeriods } from "@/lib/domain/vocabulary/price-periods";
import { propertyTypes, transactionTypes } from "@/lib/domain/vocabulary/property-types";
import type { Locale } from "@/lib/base/i18n";
import { format } from "@/lib/base/i18n/format";
import { listingPath } from "@/lib/base/public-urls";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import "./listing-card.css";

/**
 * One result of the catalog: the cover photo (400 px, over its placeholder) or a box saying there is
 * none, the title linking to the listing's page, the price in euros with its period, the city, and
 * the type and transaction in the visitor's language.
 */
export function ListingCard({
  item,
  cover,
  locale,
  texts,
}: {
  item: ListingItem;
  cover: PublicPhoto | undefined;
  locale: Locale;
  texts: PageMessages["catalog"];
}) {
  const label = (list: Enumeration, code: string) => labelOf(list, code, locale);
  const amount = item.price === null ? null : format(locale, texts.price, { amount: item.price, currency: item.currency ?? "" });
  const rooms = typeof item.facts.rooms === "number" ? format(locale, texts.rooms, { rooms: item.facts.rooms }) : null;
  return (
    <article className="listing-card">
      <ListingCover cover={cover} noPhoto={texts.noPhoto} />
      <div className="listing-card-text">
        <h3>
          <Link href={listingPath(item.code)}>{item.title}</Link>
        </h3>
        {amount && (
          <p className="price">
            <strong>
              {item.price_period === "total"
                ? amount
                : format(locale, texts.perPeriod, { price: amount, period: label(pricePeriods, item.price_period) })}
            </strong>
          </p>
        )}
        <p className="muted">
          {[item.location.city, label(propertyTypes, item.type), label(transactionTypes, item.transaction), rooms]
            .filter(Boolean)
            .join(" · ")}
        </p>
      </div>
    </article>
  );
}
