import Link from "next/link";
import { ActionButton } from "@/components/forms/action-button";
import { ConfirmAction } from "@/components/forms/confirm-action";
import { ListingCover } from "@/components/listing-cover";
import type { ListedRow } from "@/lib/domain/listings/read-shape";
import { confirmationDeadline, confirmationDueSoon } from "@/lib/domain/listings/remind-confirmation";
import type { PublicPhoto } from "@/lib/domain/media/list-public-photos";
import { labelOf } from "@/lib/base/i18n/labels";
import { rejectionCodes } from "@/lib/domain/vocabulary/rejection-codes";
import { format, type Locale } from "@/lib/base/i18n";
import { listingPath } from "@/lib/base/public-urls";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { confirmListingAction, deleteListingAction, markListingSoldAction, pauseListingAction, resumeListingAction } from "./actions";
import "@/components/listing-card.css";

const badgeClass: Partial<Record<ListedRow["row"]["status"], string>> = {
  active: "badge ok",
  rejected: "badge bad",
  hidden: "badge bad",
  unconfirmed: "badge warn",
};

/**
 * The owner's actions asked first, in the order shown: each one's texts (`pause` and
 * `pauseQuestion`, …) and the states it is offered in.
 */
const rowActions: {
  texts: "pause" | "resume" | "sold" | "delete";
  action: typeof pauseListingAction;
  shownFor: ListedRow["row"]["status"][] | "every state";
}[] = [
  { texts: "pause", action: pauseListingAction, shownFor: ["active"] },
  { texts: "resume", action: resumeListingAction, shownFor: ["paused"] },
  { texts: "sold", action: markListingSoldAction, shownFor: ["active", "paused"] },
  { texts: "delete", action: deleteListingAction, shownFor: "every state" },
];

/**
 * One of My listings: cover, title (to the edit page), state in the page's language, what waits on
 * it (an edit under moderation, the rejection's reason, confirming availability), and the owner's
 * actions the state allows, each asked first but "Still available".
 */
export function ListingRow({
  listed,
  cover,
  token,
  now,
  locale,
  texts,
}: {
  listed: ListedRow;
  cover: PublicPhoto | undefined;
  token: string;
  now: Date;
  locale: Locale;
  texts: PageMessages["myListings"];
}) {
  const { row } = listed;
  const title = String(row.fields.title ?? row.code);
  const fields = { code: row.code, token };
  const when = portalDateTime(locale, "minute");
  const deadline = row.confirmedAt ? confirmationDeadline(row.confirmedAt) : null;
  const dueSoon = row.status === "active" && row.confirmedAt !== null && confirmationDueSoon(row.confirmedAt, now);
  const ask = (question: string) => format(locale, question, { title });
  const a = texts.actions;
  const headingId = `listing-${row.code}`;
  return (
    <article className="listing-card" aria-labelledby={headingId}>
      {row.mediaProcessing && !cover ? (
        <ListingCover cover={undefined} noPhoto={texts.photosProcessing} />
      ) : (
        <ListingCover cover={cover} noPhoto={texts.noPhoto} />
      )}
      <div className="listing-card-text">
        <h3 id={headingId}>
          <Link href={`/account/listings/${row.code}`}>{title}</Link>
        </h3>
        <p>
          <span className={badgeClass[row.status] ?? "badge"}>{texts.statuses[row.status]}</span>
          {row.pendingFields ? <span className="badge warn">{texts.editPending}</span> : null}
        </p>
        <p className="muted">
          {[
            format(locale, texts.code, { code: row.code }),
            row.externalRef ? format(locale, texts.ref, { ref: row.externalRef }) : null,
            typeof row.fields.city === "string" ? row.fields.city : null,
            format(locale, texts.changed, { date: when.format(row.updatedAt) }),
          ]
            .filter(Boolean)
            .join(" · ")}
        </p>
        {row.status === "rejected" && row.rejectionReason ? (
          <p>
            {format(locale, texts.rejected, { reason: row.rejectionReason })}
            {row.rejectionCodes?.length
              ? ` ${format(locale, texts.rejectionCodes, { codes: row.rejectionCodes.map((code) => labelOf(rejectionCodes, code, locale)).join(", ") })}`
              : null}
          </p>
        ) : null}
        {row.status === "unconfirmed" && deadline ? (
          <p className="notice warning">{format(locale, texts.unconfirmedFlag, { date: when.format(deadline) })}</p>
        ) : null}
        {dueSoon && deadline ? <p className="notice warning">{format(locale, texts.dueFlag, { date: when.format(deadline) })}</p> : null}
        <div className="actions">
          {/* Always there, so the confirmation's answer stays once the row no longer asks for one. */}
          <ActionButton
            action={confirmListingAction}
            fields={fields}
            label={texts.stillAvailable}
            pending={texts.confirming}
            className=""
            offered={row.status === "unconfirmed" || dueSoon}
          />
          <Link href={`/account/listings/${row.code}`} aria-label={format(locale, texts.editLabel, { title })}>
            {texts.edit}
          </Link>
          {row.status === "active" ? (
            <Link href={listingPath(row.code)} aria-label={format(locale, texts.publicPageLabel, { title })}>
              {texts.publicPage}
            </Link>
          ) : null}
          {rowActions
            .filter((entry) => entry.shownFor === "every state" || entry.shownFor.includes(row.status))
            .map((entry) => (
              <ConfirmAction
                key={entry.texts}
                action={entry.action}
                fields={fields}
                label={a[entry.texts]}
                question={ask(a[`${entry.texts}Question`])}
                confirm={a.confirm}
                cancel={a.cancel}
                pending={a.working}
              />
            ))}
        </div>
      </div>
    </article>
  );
}
