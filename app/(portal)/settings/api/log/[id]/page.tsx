import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { getApiLogEntry, type ApiLogEntryDetail } from "@/lib/domain/api-log/get-api-log-entry";
import { AppError } from "@/lib/base/errors";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { apiLogPath, prettyBody, statusTone } from "@/lib/adapters/portal/api-log-page";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { requireAccount, type PortalSession } from "@/lib/adapters/portal/session";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).apiLog.detail.title };
}

/** One request of the account's API log; another account's entry, a missing one and a malformed id are all the 404 page. */
export default async function ApiLogEntryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const { apiLog } = pageMessages(locale);
  const t = apiLog.detail;
  const entry = await entryOrNotFound(ctx, id);
  const requestBody = prettyBody(entry.requestBody);
  const responseBody = prettyBody(entry.responseBody);

  return (
    <>
      <p>
        <Link href={apiLogPath}>{t.back}</Link>
      </p>
      <h1>{t.title}</h1>
      <section className="card">
        <dl className="facts">
          <dt>{t.requestId}</dt>
          <dd>
            <code>{entry.requestId}</code>
          </dd>
          <dt>{t.time}</dt>
          <dd>
            <time dateTime={entry.createdAt.toISOString()}>{portalDateTime(locale, "second").format(entry.createdAt)}</time>
          </dd>
          <dt>{t.key}</dt>
          <dd>{entry.keyName ?? apiLog.table.noKey}</dd>
          <dt>{t.method}</dt>
          <dd>
            <code>{entry.method}</code>
          </dd>
          <dt>{t.path}</dt>
          <dd>
            <code>{`${entry.path}${entry.query ?? ""}`}</code>
          </dd>
          <dt>{t.status}</dt>
          <dd>
            <span className={`badge ${statusTone(entry.status)}`}>{entry.status}</span>
          </dd>
          <dt>{t.duration}</dt>
          <dd>{format(locale, apiLog.table.durationMs, { ms: entry.durationMs })}</dd>
          <dt>{t.clientAddress}</dt>
          <dd>{entry.ip ?? t.unknown}</dd>
        </dl>
      </section>

      {entry.bodiesExpired ? (
        <p className="notice" role="note">
          {t.bodiesExpired}
        </p>
      ) : (
        <>
          <p className="notice" role="note">
            {t.masked}
          </p>
          <Body id="request-body" title={t.requestBody} text={requestBody} empty={t.noBody} />
          <Body id="response-body" title={t.responseBody} text={responseBody} empty={t.noBody} />
        </>
      )}
    </>
  );
}

async function entryOrNotFound(ctx: PortalSession["ctx"], id: string): Promise<ApiLogEntryDetail> {
  try {
    return await getApiLogEntry({ ctx, input: { id } });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

function Body({ id, title, text, empty }: { id: string; title: string; text: string | null; empty: string }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {text === null ? <p className="muted">{empty}</p> : <pre className="pre-wrap">{text}</pre>}
    </section>
  );
}
