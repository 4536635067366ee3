import Link from "next/link";
import type { ListingRow } from "@/lib/domain/listings/read-shape";
import { labelOf } from "@/lib/base/i18n/labels";
import { rejectionCodes } from "@/lib/domain/vocabulary/rejection-codes";
import { format, type Locale } from "@/lib/base/i18n";
import { listingPath } from "@/lib/base/public-urls";
import type { PageMessages } from "@/lib/base/i18n/page-messages";

type Texts = Pick<PageMessages, "listingForm" | "myListings">;

/** Published states: an edit waits for moderation while the live version stays. */
export const publishedStates = new Set<string>(["active", "paused", "unconfirmed"]);

/**
 * What the owner needs to know about the listing's state before editing it, in words: the state,
 * what a save will do, an edit waiting for moderation, the rejection's reason and codes, the public page.
 */
export function ListingStatus({ row, locale, texts }: { row: ListingRow; locale: Locale; texts: Texts }) {
  const t = texts.listingForm;
  const notes: Partial<Record<ListingRow["status"], string>> = {
    draft: t.draftNote,
    pending: t.pendingNote,
    rejected: t.rejectedNote,
    sold: t.frozen,
    hidden: t.frozen,
  };
  return (
    <section className="stack" aria-label={format(locale, t.status, { status: texts.myListings.statuses[row.status] })}>
      <p>
        <span className="badge">{format(locale, t.status, { status: texts.myListings.statuses[row.status] })}</span>{" "}
        <span className="muted">{format(locale, t.code, { code: row.code })}</span>
      </p>
      {row.status === "rejected" && row.rejectionReason ? (
        <p className="notice error">
          {format(locale, t.rejected, { reason: row.rejectionReason })}
          {row.rejectionCodes?.length
            ? ` ${format(locale, t.rejectionCodes, { codes: row.rejectionCodes.map((code) => labelOf(rejectionCodes, code, locale)).join(", ") })}`
            : null}
        </p>
      ) : null}
      {publishedStates.has(row.status) ? <p className="notice">{t.publishedNote}</p> : null}
      {row.pendingFields ? <p className="notice warning">{t.editPending}</p> : null}
      {notes[row.status] ? <p className="notice">{notes[row.status]}</p> : null}
      {row.status === "active" ? (
        <p>
          <Link href={listingPath(row.code)}>{t.publicPage}</Link>
        </p>
      ) : null}
    </section>
  );
}
