import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/data-table";
import { notFound } from "next/navigation";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { ConfirmAction } from "@/components/forms/confirm-action";
import { ListingPhotos } from "@/components/listing-photos";
import { getListingForReview } from "@/lib/domain/listings/review";
import { listReviewPhotos } from "@/lib/domain/media/list-public-photos";
import { amenities } from "@/lib/domain/vocabulary/amenities";
import { describeEdit } from "@/lib/domain/vocabulary/describe-edit";
import { describeFacts } from "@/lib/domain/vocabulary/describe-facts";
import { FactList } from "@/components/fact-list";
import { labelOf } from "@/lib/base/i18n/labels";
import { rejectionCodes } from "@/lib/domain/vocabulary/rejection-codes";
import { AppError } from "@/lib/base/errors";
import { format } from "@/lib/base/i18n";
import { listingPath } from "@/lib/base/public-urls";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formToken } from "@/lib/adapters/portal/csrf";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { decisionToken } from "@/lib/adapters/portal/moderation-pages";
import { requireModerator } from "@/lib/adapters/portal/session";
import { decideAction } from "../../actions";
import { LikelyDuplicates } from "./duplicates";
import { RejectForm } from "./reject-form";

const ownSections = new Set(["title", "description", "features"]);

type Props = { params: Promise<{ code: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

async function load(code: string) {
  const { account, ctx } = await requireModerator();
  try {
    const [review, photos] = await Promise.all([getListingForReview({ ctx, input: { code } }), listReviewPhotos({ ctx, input: { code } })]);
    return { account, review, photos };
  } catch (error) {
    if (error instanceof AppError && (error.code === "not_found" || error.code === "forbidden")) notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { review } = await load((await params).code);
  const title = String((review.pendingFields ?? review.fields).title);
  const locale = await requestLocale();
  return { title: format(locale, pageMessages(locale).moderation.review.title, { title }) };
}

/**
 * A listing under review: what it would publish (the edit's document when one waits), the edit
 * against the published version field by field, other accounts' listings of the same place beside
 * it, its photos and open reports, and the decisions, which are not offered on the moderator's own
 * or their agency's listings.
 */
export default async function ReviewPage({ params, searchParams }: Props) {
  const { account, review, photos } = await load((await params).code);
  const locale = await requestLocale();
  const texts = pageMessages(locale);
  const t = texts.moderation.review;
  const words = { yes: texts.listing.yes, no: texts.listing.no };
  const shown = review.pendingFields ?? review.fields;
  // Title, description and amenities are shown as the public page shows them, not as rows of details.
  const facts = describeFacts({ facts: shown, type: String(shown.type), locale, words }).filter((fact) => !ownSections.has(fact.name));
  const changes = review.pendingFields ? describeEdit({ before: review.fields, after: review.pendingFields, locale, words }) : null;
  const features = Array.isArray(shown.features) ? (shown.features as string[]) : [];
  const token = formToken(account, decisionToken, { code: review.code });
  const fields = { code: review.code, token };
  const decided = (await searchParams).decided;
  return (
    <>
      <h1>{format(locale, t.title, { title: String(shown.title) })}</h1>
      {decided ? (
        <p className="notice success" role="status">
          {texts.moderation.review.done}
        </p>
      ) : null}
      <p>
        <span className="badge">{format(locale, t.status, { status: texts.moderation.statuses[review.status] })}</span>{" "}
        {review.openReports > 0 ? (
          <Link className="badge bad" href="/moderation/reports">
            {format(locale, t.reports, { count: review.openReports })}
          </Link>
        ) : (
          <span className="badge">{t.noReports}</span>
        )}
      </p>
      <p className="muted">
        <Link href="/moderation">{t.back}</Link> · {format(locale, t.lister, { lister: review.lister })} ·{" "}
        {format(locale, t.changed, { date: portalDateTime(locale).format(review.updatedAt) })}
        {review.status === "active" ? (
          <>
            {" · "}
            <Link href={listingPath(review.code)}>{t.publicPage}</Link>
          </>
        ) : null}
      </p>
      {review.rejectionReason ? (
        <p>
          {format(locale, t.rejection, {
            reason: review.rejectionReason,
            codes: review.rejectionCodes.map((code) => labelOf(rejectionCodes, code, locale)).join(", "),
          })}
        </p>
      ) : null}
      {changes ? (
        // Not a named region itself: the scrolling table under its heading is the one region of that name.
        <section>
          <h2 id="edit-heading">{t.editHeading}</h2>
          <p>{t.editIntro}</p>
          <DataTable rows={changes.length} empty={t.noChange} labelledBy="edit-heading" variant="words">
            <thead>
              <tr>
                <th scope="col">{t.field}</th>
                <th scope="col">{t.before}</th>
                <th scope="col">{t.after}</th>
              </tr>
            </thead>
            <tbody>
              {changes.map((change) => (
                <tr key={change.name}>
                  <th scope="row" className="text">
                    {change.label}
                  </th>
                  <td className="text pre-wrap">
                    {change.before === null ? <span className="muted">{t.none}</span> : <del>{change.before}</del>}
                  </td>
                  <td className="text pre-wrap">
                    {change.after === null ? <span className="muted">{t.none}</span> : <ins>{change.after}</ins>}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        </section>
      ) : null}
      <LikelyDuplicates review={review} locale={locale} texts={texts} />
      <section aria-labelledby="decision-heading" className="card">
        <h2 id="decision-heading">{t.decisions}</h2>
        {review.own ? (
          <p className="notice warning">{t.own}</p>
        ) : (
          <div className="stack">
            <div className="actions">
              {review.status === "pending" || review.pendingFields ? (
                <ConfirmAction
                  action={decideAction}
                  fields={{ ...fields, decision: "approve" }}
                  label={review.pendingFields ? t.approveEdit : t.approve}
                  question={review.pendingFields ? t.approveEditQuestion : t.approveQuestion}
                  confirm={t.confirm}
                  cancel={t.cancel}
                  pending={t.approving}
                />
              ) : null}
              {review.status !== "hidden" ? (
                <ConfirmAction
                  action={decideAction}
                  fields={{ ...fields, decision: "hide" }}
                  label={t.hide}
                  question={t.hideQuestion}
                  confirm={t.confirm}
                  cancel={t.cancel}
                  pending={t.hiding}
                />
              ) : null}
            </div>
            <RejectForm
              fields={fields}
              codes={rejectionCodes.entries.map((entry) => ({ code: entry.code, label: entry.labels[locale] }))}
              texts={t}
            />
          </div>
        )}
      </section>
      <section aria-labelledby="listing-heading">
        <h2 id="listing-heading">{t.listingHeading}</h2>
        <article lang={typeof shown.content_locale === "string" ? shown.content_locale : "ro"}>
          <h3>{String(shown.title)}</h3>
          <ListingPhotos photos={photos} locale={locale} texts={{ heading: texts.listing.photos, alt: texts.listing.photoAlt }} />
          <p className="pre-wrap">{String(shown.description)}</p>
        </article>
        <h3>{t.facts}</h3>
        <FactList facts={facts} />
        {features.length > 0 ? (
          <>
            <h3>{texts.listing.features}</h3>
            <ul className="features">
              {features.map((feature) => (
                <li key={feature}>{labelOf(amenities, feature, locale)}</li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
    </>
  );
}
