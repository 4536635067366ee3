import Link from "next/link";
import { DataTable } from "@/components/data-table";
import { format, type Locale } from "@/lib/base/i18n";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import type { ListingReview } from "@/lib/domain/listings/review";
import { describeFacts } from "@/lib/domain/vocabulary/describe-facts";

/** The facts that say which place a listing is, in this order: what the duplicate check compares, and what tells two flats apart. */
const placeFacts = [
  "city",
  "area",
  "street",
  "street_number",
  "latitude",
  "longitude",
  "usable_area_sqm",
  "land_area_sqm",
  "rooms",
  "floor",
  "price",
  "price_currency",
];

const contentLocale = (fields: Record<string, unknown>) => (typeof fields.content_locale === "string" ? fields.content_locale : "ro");

/**
 * Other accounts' listings that very likely describe the same place as the one under review, each
 * beside it in a table of its own: who lists it, its state, its title and the facts that place it.
 */
export function LikelyDuplicates({ review, locale, texts }: { review: ListingReview; locale: Locale; texts: PageMessages }) {
  if (review.duplicates.length === 0) return null;
  const t = texts.moderation.review;
  const words = { yes: texts.listing.yes, no: texts.listing.no };
  const shown = review.pendingFields ?? review.fields;
  const factsOf = (fields: Record<string, unknown>) =>
    new Map(describeFacts({ facts: fields, type: String(fields.type), locale, words }).map((fact) => [fact.name, fact]));
  const ours = factsOf(shown);
  return (
    <section aria-labelledby="duplicates-heading">
      <h2 id="duplicates-heading">{t.duplicates.heading}</h2>
      <p>{t.duplicates.intro}</p>
      {review.duplicates.map((other) => {
        const theirs = factsOf(other.fields);
        const rows = [
          { name: "lister", label: t.duplicates.lister, ours: review.lister, theirs: other.lister },
          {
            name: "status",
            label: t.duplicates.status,
            ours: texts.moderation.statuses[review.status],
            theirs: texts.moderation.statuses[other.status],
          },
          {
            name: "title",
            label: t.duplicates.listingTitle,
            ours: String(shown.title),
            theirs: String(other.fields.title),
            // The titles are in their listings' languages, not the page's.
            lang: [contentLocale(shown), contentLocale(other.fields)],
          },
          ...placeFacts.flatMap((name) => {
            const [mine, its] = [ours.get(name), theirs.get(name)];
            if (!mine && !its) return [];
            return [{ name, label: (mine ?? its)!.label, ours: mine?.value ?? null, theirs: its?.value ?? null }];
          }),
        ];
        const captionId = `duplicate-${other.code}`;
        return (
          <div key={other.code} className="stack">
            <DataTable
              rows={rows.length}
              empty={null}
              labelledBy={captionId}
              captionId={captionId}
              caption={format(locale, t.duplicates.compared, { code: other.code, lister: other.lister })}
              variant="words"
            >
              <thead>
                <tr>
                  <th scope="col">{t.field}</th>
                  <th scope="col">{t.duplicates.thisListing}</th>
                  <th scope="col">{other.code}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.name}>
                    <th scope="row" className="text">
                      {row.label}
                    </th>
                    <td className="text" lang={"lang" in row ? row.lang[0] : undefined}>
                      {row.ours === null ? <span className="muted">{t.none}</span> : row.ours}
                    </td>
                    <td className="text" lang={"lang" in row ? row.lang[1] : undefined}>
                      {row.theirs === null ? <span className="muted">{t.none}</span> : row.theirs}
                    </td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
            <p>
              <Link href={`/moderation/listings/${other.code}`}>{format(locale, t.duplicates.open, { code: other.code })}</Link>
            </p>
          </div>
        );
      })}
    </section>
  );
}
