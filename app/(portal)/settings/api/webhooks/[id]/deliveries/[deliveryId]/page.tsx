import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { ActionButton } from "@/components/forms/action-button";
import { WithCode } from "@/components/with-code";
import { getDelivery, type DeliveryDetail } from "@/lib/domain/webhooks/get-delivery";
import { AppError } from "@/lib/base/errors";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { requireAccount } from "@/lib/adapters/portal/session";
import { deliveryErrorText, deliveryLogPath, deliveryTone } from "@/lib/adapters/portal/webhook-pages";
import { resendDeliveryAction } from "../../../actions";

type Props = { params: Promise<{ id: string; deliveryId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await requestLocale();
  return { title: format(locale, pageMessages(locale).webhooks.delivery.title, { id: (await params).deliveryId.slice(0, 40) }) };
}

/** One delivery: its state, the last attempt's request (headers and body) and the receiver's answer; Resend. */
export default async function DeliveryPage({ params }: Props) {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const texts = pageMessages(locale).webhooks;
  const t = texts.delivery;
  const { id: webhookId, deliveryId } = await params;
  let delivery: DeliveryDetail;
  try {
    delivery = await getDelivery({ ctx, input: { webhookId, id: deliveryId } });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
  const when = portalDateTime(locale, "second");
  const none = texts.log.none;
  return (
    <>
      <p>
        <Link href={deliveryLogPath(webhookId)}>{t.back}</Link>
      </p>
      <h1>{format(locale, t.title, { id: delivery.id })}</h1>
      <p>
        <WithCode text={t.intro} placeholder="url" code={delivery.webhook.url} />
      </p>
      <section className="card">
        <dl className="facts">
          <dt>{t.event}</dt>
          <dd>
            <code>{delivery.event_type}</code> · <code>{delivery.event_id}</code>
          </dd>
          <dt>{t.status}</dt>
          <dd>
            <span className={`badge ${deliveryTone(delivery.status)}`}>{texts.log.statuses[delivery.status]}</span>
          </dd>
          <dt>{t.attempts}</dt>
          <dd>{format(locale, texts.log.attemptsOf, { attempts: delivery.attempts, max: delivery.max_attempts })}</dd>
          <dt>{t.receiver}</dt>
          <dd>{delivery.last_status_code ?? (delivery.attempts > 0 ? texts.log.noAnswer : none)}</dd>
          <dt>{t.latency}</dt>
          <dd>{delivery.last_duration_ms === null ? none : format(locale, texts.log.ms, { ms: delivery.last_duration_ms })}</dd>
          <dt>{t.error}</dt>
          <dd>{deliveryErrorText(delivery, texts) ?? none}</dd>
          <dt>{t.created}</dt>
          <dd>{when.format(delivery.created_at)}</dd>
          <dt>{t.updated}</dt>
          <dd>{when.format(delivery.updated_at)}</dd>
          <dt>{t.nextAttempt}</dt>
          <dd>{delivery.status === "pending" && delivery.next_attempt_at ? when.format(delivery.next_attempt_at) : none}</dd>
        </dl>
        <div className="actions">
          <ActionButton
            action={resendDeliveryAction}
            fields={{ id: delivery.id, webhook_id: webhookId }}
            label={t.resend}
            pending={t.resending}
          />
        </div>
      </section>
      <section className="card" aria-labelledby="delivery-request">
        <h2 id="delivery-request">{t.request}</h2>
        <h3>{t.headers}</h3>
        {delivery.request.headers ? (
          <pre className="pre-wrap">
            {Object.entries(delivery.request.headers)
              .map(([name, value]) => `${name}: ${value}`)
              .join("\n")}
          </pre>
        ) : (
          <p className="muted">{t.notAttempted}</p>
        )}
        <h3>{t.body}</h3>
        <pre className="pre-wrap">{pretty(delivery.request.body)}</pre>
      </section>
      <section className="card" aria-labelledby="delivery-response">
        <h2 id="delivery-response">{t.response}</h2>
        {delivery.response_excerpt ? <pre className="pre-wrap">{delivery.response_excerpt}</pre> : <p className="muted">{t.noResponse}</p>}
      </section>
    </>
  );
}

/** The body as sent is one line of JSON; shown indented (the signature covers the bytes sent, not this). */
const pretty = (body: string): string => JSON.stringify(JSON.parse(body), null, 2);
