import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { DataTable } from "@/components/data-table";
import { WithCode } from "@/components/with-code";
import { listDeliveries, deliveryStatuses } from "@/lib/domain/webhooks/list-deliveries";
import { AppError } from "@/lib/base/errors";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { forwardPaging, pageAt } from "@/lib/adapters/portal/paging";
import { requireAccount } from "@/lib/adapters/portal/session";
import {
  deliveryErrorText,
  deliveryLogHref,
  deliveryLogPath,
  deliveryPath,
  deliveryTone,
  parseDeliveryLogQuery,
  resendPeriods,
  webhooksPath,
} from "@/lib/adapters/portal/webhook-pages";
import { ActionButton } from "@/components/forms/action-button";
import { resendDeliveryAction } from "../actions";
import { ResendFailedForm } from "../webhook-forms";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).webhooks.log.title };
}

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** One webhook's delivery log: newest first, by status, a page at a time; a delivery opens its detail; failed ones resent since a time. */
export default async function DeliveryLogPage({ params, searchParams }: Props) {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const texts = pageMessages(locale);
  const t = texts.webhooks.log;
  const { id } = await params;
  const query = parseDeliveryLogQuery(await searchParams);

  // Another account's webhook, or none: not found. A cursor the service refuses: the newest page, said.
  const deliveries = (cursor: string | undefined) =>
    listDeliveries({ ctx, input: { webhookId: id, status: query.status, cursor } }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "not_found") notFound();
      throw error;
    });
  const { page, cursor, refused: cursorRefused } = await pageAt(query.cursor, deliveries);
  const { webhook } = page;
  const paging = forwardPaging((at) => deliveryLogHref(webhook.id, { status: query.status, cursor: at }), {
    cursor,
    next: page.nextCursor,
    items: page.items,
  });
  const minute = portalDateTime(locale, "second");
  const day = portalDateTime(locale, "minute");
  const periods = resendPeriods(ctx.now).map((period) => ({
    id: period.id,
    value: period.since.toISOString(),
    label: format(locale, t.resendFailed.periods[period.id], { date: day.format(period.since) }),
  }));

  return (
    <>
      <p>
        <Link href={webhooksPath}>{t.back}</Link>
      </p>
      <h1>{t.title}</h1>
      <p>
        <WithCode text={t.intro} placeholder="url" code={webhook.url} />
      </p>
      {cursorRefused ? (
        <p className="notice warning" role="status">
          {t.badCursor}
        </p>
      ) : null}

      <form method="get" action={deliveryLogPath(webhook.id)} className="actions filters" aria-label={t.filter}>
        <label htmlFor="status">{t.filter}</label>
        <select id="status" name="status" defaultValue={query.status ?? ""}>
          <option value="">{t.anyStatus}</option>
          {deliveryStatuses.map((status) => (
            <option key={status} value={status}>
              {t.statuses[status]}
            </option>
          ))}
        </select>
        <button type="submit" className="secondary">
          {t.apply}
        </button>
      </form>

      <DataTable
        rows={page.items.length}
        empty={query.status || paging.pastLast ? t.emptyFiltered : t.empty}
        caption={t.title}
        captionId="deliveries-caption"
        labelledBy="deliveries-caption"
        variant="log"
      >
        <thead>
          <tr>
            <th scope="col">{t.created}</th>
            <th scope="col">{t.event}</th>
            <th scope="col">{t.status}</th>
            <th scope="col">{t.attempts}</th>
            <th scope="col">{t.receiver}</th>
            <th scope="col">{t.latency}</th>
            <th scope="col">{t.error}</th>
            <th scope="col">{t.nextAttempt}</th>
            <th scope="col">{t.actions}</th>
          </tr>
        </thead>
        <tbody>
          {page.items.map((delivery) => (
            <tr key={delivery.id}>
              <td className="log-time">
                <Link href={deliveryPath(webhook.id, delivery.id)}>
                  <time dateTime={delivery.created_at.toISOString()}>{minute.format(delivery.created_at)}</time>
                </Link>
              </td>
              <td className="log-path">
                <code>{delivery.event_type}</code>
                <br />
                <code className="muted">{delivery.event_id}</code>
              </td>
              <td>
                <span className={`badge ${deliveryTone(delivery.status)}`}>{t.statuses[delivery.status]}</span>
              </td>
              <td>{format(locale, t.attemptsOf, { attempts: delivery.attempts, max: delivery.max_attempts })}</td>
              <td>{delivery.last_status_code ?? (delivery.attempts > 0 ? t.noAnswer : t.none)}</td>
              <td>{delivery.last_duration_ms === null ? t.none : format(locale, t.ms, { ms: delivery.last_duration_ms })}</td>
              <td className="log-key">{deliveryErrorText(delivery, texts.webhooks) ?? t.none}</td>
              <td className="log-time">
                {delivery.status === "pending" && delivery.next_attempt_at ? minute.format(delivery.next_attempt_at) : t.none}
              </td>
              <td>
                {/* One still being tried is not resent (the service would say so): its attempts are on their way.
                    The form stays in every row, so a resend's answer outlives the row turning "Being sent". */}
                <ActionButton
                  action={resendDeliveryAction}
                  fields={{ id: delivery.id, webhook_id: webhook.id }}
                  label={texts.webhooks.delivery.resend}
                  accessibleLabel={format(locale, t.resendRow, {
                    event: delivery.event_type,
                    date: minute.format(delivery.created_at),
                  })}
                  pending={texts.webhooks.delivery.resending}
                  offered={delivery.status === "succeeded" || delivery.status === "failed"}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      {paging.first || paging.next ? (
        <nav aria-label={t.title} className="actions paging">
          {paging.first ? <Link href={paging.first}>{t.newest}</Link> : null}
          {paging.next ? (
            <Link href={paging.next} rel="next">
              {t.more}
            </Link>
          ) : null}
        </nav>
      ) : null}

      <section className="card" aria-labelledby="resend-failed">
        <h2 id="resend-failed">{t.resendFailed.heading}</h2>
        <ResendFailedForm
          id={webhook.id}
          periods={periods}
          defaultSince={periods.find((period) => period.id === "day")?.value ?? ""}
          texts={{ webhooks: texts.webhooks, secret: texts.secret }}
        />
      </section>
    </>
  );
}
