import type { Metadata } from "next";
import Link from "next/link";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { DataTable } from "@/components/data-table";
import { WithCode } from "@/components/with-code";
import { listApiLog, statusClasses } from "@/lib/domain/api-log/list-api-log";
import { listOwnKeys, type OwnKey } from "@/lib/domain/keys/list-keys";
import { format, type Locale } from "@/lib/base/i18n";
import { pageMessages, type PageMessages } from "@/lib/base/i18n/page-messages";
import {
  apiLogEntryHref,
  apiLogHref,
  apiLogPath,
  hasFilters,
  parseApiLogQuery,
  statusTone,
  type SearchParams,
} from "@/lib/adapters/portal/api-log-page";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { forwardPaging, pageAt } from "@/lib/adapters/portal/paging";
import { requireAccount } from "@/lib/adapters/portal/session";
import { ReferenceLink } from "@/components/reference-link";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).apiLog.title };
}

/**
 * The account's API log: a GET form of filters (so a filtered page is a shareable address), the
 * requests newest first, each linking to its detail, and "Older requests" with the next cursor.
 */
export default async function ApiLogPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const { apiLog: t } = pageMessages(locale);
  const { keys } = await listOwnKeys({ ctx });
  const query = parseApiLogQuery(
    await searchParams,
    keys.map((key) => key.id),
  );

  const { page, cursor, refused } = await pageAt(query.cursor, (at) => listApiLog({ ctx, input: { ...query.filters, cursor: at } }));
  const cursorRefused = refused || query.ignored.includes("cursor");
  const paging = forwardPaging((at) => apiLogHref(query.filters, at), { cursor, next: page.nextCursor, items: page.items });
  const ignoredFilters = query.ignored.filter((name) => name !== "cursor").map((name) => t.filters[name]);
  const filtered = hasFilters(query.filters);

  return (
    <>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>

      {ignoredFilters.length > 0 ? (
        <p className="notice warning" role="status">
          {format(locale, t.filters.ignored, { fields: ignoredFilters.join(", ") })}
        </p>
      ) : null}
      {cursorRefused ? (
        <p className="notice warning" role="status">
          {t.filters.unknownCursor}
        </p>
      ) : null}

      <form method="get" action={apiLogPath} className="card filters" aria-labelledby="log-filters">
        <h2 id="log-filters">{t.filters.title}</h2>
        <div className="filter-fields">
          <div className="field">
            <label htmlFor="status">{t.filters.status}</label>
            <select id="status" name="status" defaultValue={query.filters.status ?? ""}>
              <option value="">{t.filters.anyStatus}</option>
              {statusClasses.map((status) => (
                <option key={status} value={status}>
                  {t.filters.statusClasses[status]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="key">{t.filters.key}</label>
            <select id="key" name="key" defaultValue={query.filters.keyId ?? ""}>
              <option value="">{t.filters.anyKey}</option>
              {keys.map((key) => (
                <option key={key.id} value={key.id}>
                  {keyLabel(key, t, locale)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="path">{t.filters.path}</label>
            <input
              id="path"
              name="path"
              type="text"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              maxLength={2048}
              defaultValue={query.filters.path ?? ""}
              aria-describedby="path-hint"
            />
            <p className="hint" id="path-hint">
              {t.filters.pathHint}
            </p>
          </div>
        </div>
        <div className="actions">
          <button type="submit">{t.filters.apply}</button>
          <Link href={apiLogPath}>{t.filters.clear}</Link>
        </div>
      </form>

      <DataTable
        rows={page.items.length}
        empty={
          filtered || paging.pastLast ? (
            <>
              <p>{t.empty.filtered}</p>
              <p>
                <Link href={apiLogPath}>{t.empty.clear}</Link>
              </p>
            </>
          ) : (
            <>
              <h2>{t.empty.title}</h2>
              <p>
                <WithCode text={t.empty.text} placeholder="request" code="GET /api/v1/ping" />
              </p>
              <p>
                <ReferenceLink>{t.empty.reference}</ReferenceLink>
              </p>
            </>
          )
        }
        caption={t.table.caption}
        captionId="log-caption"
        labelledBy="log-caption"
        variant="log"
      >
        <thead>
          <tr>
            <th scope="col">{t.table.time}</th>
            <th scope="col">{t.table.method}</th>
            <th scope="col">{t.table.path}</th>
            <th scope="col">{t.table.status}</th>
            <th scope="col">{t.table.duration}</th>
            <th scope="col">{t.table.key}</th>
            <th scope="col">{t.table.requestId}</th>
          </tr>
        </thead>
        <tbody>
          {page.items.map((row) => (
            <tr key={row.id}>
              <td className="log-time">
                <Link href={apiLogEntryHref(row.id)}>
                  <time dateTime={row.createdAt.toISOString()}>{portalDateTime(locale, "second").format(row.createdAt)}</time>
                </Link>
              </td>
              <td>
                <code>{row.method}</code>
              </td>
              <td className="log-path">
                <code>{row.path}</code>
              </td>
              <td>
                <span className={`badge ${statusTone(row.status)}`}>{row.status}</span>
              </td>
              <td>{format(locale, t.table.durationMs, { ms: row.durationMs })}</td>
              <td className="log-key">{row.keyName ?? t.table.noKey}</td>
              <td className="log-id">
                <code>{row.requestId}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      {paging.first || paging.next ? (
        <nav aria-label={t.paging.label} className="actions paging">
          {paging.first ? <Link href={paging.first}>{t.paging.newest}</Link> : null}
          {paging.next ? (
            <Link href={paging.next} rel="next">
              {t.paging.older}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

function keyLabel(key: OwnKey, t: PageMessages["apiLog"], locale: Locale): string {
  if (key.status === "active") return format(locale, t.filters.keyOption, { name: key.name, id: key.id });
  return format(locale, t.filters.keyOptionWithStatus, { name: key.name, id: key.id, status: t.filters.keyStatuses[key.status] });
}
