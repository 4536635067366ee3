import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { getManagedListing } from "@/lib/domain/listings/get";
import { listingEtag } from "@/lib/domain/listings/read-shape";
import { listOwnPhotos } from "@/lib/domain/media/list-own-photos";
import { floorLevels, labelOf, photoRooms, writeFields } from "@/lib/domain/vocabulary";
import { mediaFailureReasons } from "@/lib/domain/vocabulary/media-failure-reasons";
import { AppError } from "@/lib/base/errors";
import { format, type Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formToken } from "@/lib/adapters/portal/csrf";
import { formSections, kindOf, storedValues, unsaidValues } from "@/lib/adapters/portal/listing-form";
import { requireAccount, type PortalSession } from "@/lib/adapters/portal/session";
import { listingFormToken } from "../_form/form-token";
import { ListingForm } from "../_form/listing-form";
import { ListingStatus, publishedStates } from "../_form/listing-status";
import { PhotoEditor } from "../_form/photo-editor";

type Props = { params: Promise<{ code: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The listing if the signed-in account manages it; any other code is a 404, as in the API. */
async function managed(ctx: PortalSession["ctx"], code: string) {
  try {
    return (await getManagedListing({ ctx, input: { code } })).row;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

const titleOf = (row: { code: string; fields: Record<string, unknown> }, untitled: string, locale: Locale) =>
  typeof row.fields.title === "string" ? row.fields.title : format(locale, untitled, { code: row.code });

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { ctx } = await requireAccount();
  const row = await managed(ctx, (await params).code);
  const locale = await requestLocale();
  return { title: titleOf(row, pageMessages(locale).listingForm.untitled, locale) };
}

const savedKinds = ["draft", "submitted", "moderation", "saved", "unchanged"] as const;

/**
 * The owner's page of a listing: its state in words, what waits on it, and the edit form (the
 * pending edit when there is one) with the listing's version as If-Match. After a save it says what
 * the save did (`saved`) and its warnings (`warning`, "pointer code", and the other listing's code
 * after a `possible_duplicate`).
 */
export default async function OwnListingPage({ params, searchParams }: Props) {
  const { account, ctx } = await requireAccount();
  const locale = await requestLocale();
  const texts = pageMessages(locale);
  const t = texts.listingForm;
  const row = await managed(ctx, (await params).code);
  const given = await searchParams;
  const saved = savedKinds.find((kind) => kind === given.saved);
  const warnings = [given.warning ?? []].flat().flatMap((item) => {
    const [pointer = "", code = "", listing = ""] = item.split(" ");
    const field = pointer.split("/")[1] ?? "";
    const label = field in writeFields ? writeFields[field as keyof typeof writeFields].labels[locale] : field;
    return code in t.warnings ? [format(locale, t.warnings[code as keyof typeof t.warnings], { field: label, listing })] : [];
  });
  const kind = kindOf(row.type, row.transaction);
  const editable = kind && row.status !== "sold" && row.status !== "hidden";
  const save = row.status === "rejected" ? t.resubmit : publishedStates.has(row.status) ? t.sendEdit : t.saveChanges;
  const intents =
    row.status === "draft"
      ? [
          { intent: "draft", label: t.saveDraft },
          { intent: "submit", label: t.submit },
        ]
      : [{ intent: "save", label: save }];

  return (
    <>
      <p>
        <Link href="/account/listings">{t.backToList}</Link>
      </p>
      <h1>{titleOf(row, t.untitled, locale)}</h1>
      {saved ? (
        <div className="notice success" role="status">
          <p>{t.saved[saved]}</p>
          {warnings.length ? (
            <>
              <p>{t.warningsTitle}</p>
              <ul>
                {warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
      <ListingStatus row={row} locale={locale} texts={texts} />
      {editable ? (
        <section className="stack" aria-labelledby="listing-form-title">
          <h2 id="listing-form-title">{t.formTitle}</h2>
          <ListingForm
            sections={formSections(kind, locale)}
            initial={{ ...unsaidValues, ...storedValues(row.pendingFields ?? row.fields) }}
            hidden={{ code: row.code, token: formToken(account, listingFormToken, { code: row.code }), etag: listingEtag(row) }}
            intents={intents}
            hint={row.status === "draft" ? t.draftHint : undefined}
            texts={t}
          />
        </section>
      ) : null}
      <PhotoEditor
        code={row.code}
        token={formToken(account, listingFormToken, { code: row.code })}
        photos={(await listOwnPhotos({ ctx, input: { code: row.code } })).map((photo) => ({
          ...photo,
          failure: photo.failureReason ? labelOf(mediaFailureReasons, photo.failureReason, locale) : null,
        }))}
        floors={floorLevels.entries.map((entry) => ({ code: entry.code, label: entry.labels[locale] }))}
        rooms={photoRooms.entries.map((entry) => ({ code: entry.code, label: entry.labels[locale] }))}
        texts={t.photos}
      />
      <noscript>
        <p className="notice">{t.photos.needsScript}</p>
      </noscript>
    </>
  );
}
