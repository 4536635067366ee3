import type { Metadata } from "next";
import Link from "next/link";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { DataTable } from "@/components/data-table";
import { ConfirmAction } from "@/components/forms/confirm-action";
import { listOpenReports } from "@/lib/domain/listings/reports";
import { format } from "@/lib/base/i18n";
import { listingPath } from "@/lib/base/public-urls";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formToken } from "@/lib/adapters/portal/csrf";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { reportToken, reviewPath } from "@/lib/adapters/portal/moderation-pages";
import { requireModerator } from "@/lib/adapters/portal/session";
import { closeReportAction } from "../actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).moderation.reports.title };
}

/**
 * Open reports, oldest first, for moderators (anyone else: not found): the reported listing (its
 * review and its public page), the reason, who sent it and when; closing one lets the owner delete
 * the listing again. A report on the moderator's own listing is left to another moderator.
 */
export default async function ReportsPage() {
  const { account, ctx } = await requireModerator();
  const locale = await requestLocale();
  const { moderation } = pageMessages(locale);
  const t = moderation.reports;
  const reports = await listOpenReports({ ctx, input: {} });
  const date = portalDateTime(locale);
  return (
    <>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      <p className="muted">{format(locale, t.count, { count: reports.length })}</p>
      <DataTable rows={reports.length} empty={t.empty} label={t.title} variant="words">
        <thead>
          <tr>
            <th scope="col">{t.listing}</th>
            <th scope="col">{t.reason}</th>
            <th scope="col">{t.reporter}</th>
            <th scope="col">{t.date}</th>
            <th scope="col">{t.actions}</th>
          </tr>
        </thead>
        <tbody>
          {reports.map((report) => (
            <tr key={report.id}>
              <th scope="row" className="text">
                <Link href={reviewPath(report.listingCode)}>{report.listingTitle}</Link>
                <br />
                <Link href={listingPath(report.listingCode)} className="muted">
                  {t.publicPage} ({report.listingCode})
                </Link>
              </th>
              <td className="text pre-wrap">{report.reason}</td>
              <td className="text">{report.reporterEmail ?? <span className="muted">{t.anonymous}</span>}</td>
              <td className="date">{date.format(report.createdAt)}</td>
              <td>
                {report.own ? (
                  <span className="badge">{t.own}</span>
                ) : (
                  <ConfirmAction
                    action={closeReportAction}
                    fields={{ id: report.id, token: formToken(account, reportToken, { id: report.id }) }}
                    label={t.close}
                    question={t.closeQuestion}
                    confirm={moderation.review.confirm}
                    cancel={moderation.review.cancel}
                    pending={t.closing}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </>
  );
}
