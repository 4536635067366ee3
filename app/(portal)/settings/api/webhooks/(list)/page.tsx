import type { Metadata } from "next";
import Link from "next/link";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { formToken } from "@/lib/adapters/portal/csrf";
import { config, localUrlsAllowed } from "@/lib/base/config";
import { ActionButton } from "@/components/forms/action-button";
import { listOwnClients } from "@/lib/domain/oauth/list-own-clients";
import { webhookSuccessRates } from "@/lib/domain/webhooks/delivery";
import { maxWebhooksPerAccount, subscribableEventTypes } from "@/lib/domain/webhooks/fields";
import { listWebhooks } from "@/lib/domain/webhooks/list-webhooks";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { requireAccount } from "@/lib/adapters/portal/session";
import { startWebhookAction, stopWebhookAction, testWebhookAction } from "../actions";
import { sandboxEventToken } from "../sandbox-event-token";
import { CreateWebhookForm, DeleteWebhook, RotateWebhookSecret } from "../webhook-forms";
import { SandboxEventSection } from "../sandbox-event-section";
import "./webhooks.css";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).webhooks.title };
}

/**
 * The account's webhooks (its integrator apps' too): each with its state, its success over 24 hours,
 * Test, stop/start, a new secret, deletion and its delivery log; then the creation form and, in the
 * sandbox, the form that sends a test event of a listing.
 */
export default async function WebhooksPage() {
  const { ctx, account } = await requireAccount();
  const locale = await requestLocale();
  const texts = pageMessages(locale);
  const t = texts.webhooks;
  // What the client components need, not every page's texts.
  const formTexts = { webhooks: t, secret: texts.secret };
  const [webhooks, apps, rates] = await Promise.all([listWebhooks({ ctx }), listOwnClients({ ctx }), webhookSuccessRates({ ctx })]);
  const appName = (clientId: string) => apps.find((app) => app.client_id === clientId)?.name ?? clientId;
  const day = portalDateTime(locale, "day");
  const minute = portalDateTime(locale, "minute");
  return (
    <>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      <p className="muted">{format(locale, t.usage, { used: webhooks.length, limit: maxWebhooksPerAccount })}</p>
      {webhooks.length === 0 ? (
        <p className="empty">{t.empty}</p>
      ) : (
        <ul className="plain">
          {webhooks.map((webhook) => {
            const rate = rates.get(webhook.id);
            return (
              <li key={webhook.id} className="card" aria-labelledby={`webhook-${webhook.id}`}>
                <h2 id={`webhook-${webhook.id}`} className="webhook-url">
                  <code>{webhook.url}</code>
                </h2>
                {webhook.client_id ? <p>{format(locale, t.app, { client: appName(webhook.client_id) })}</p> : null}
                <p>
                  {webhook.active ? (
                    <span className="badge ok">{t.statusActive}</span>
                  ) : (
                    <span className="badge bad">
                      {format(locale, t.stopped[webhook.stopped_reason ?? "owner"], { date: minute.format(webhook.stopped_at ?? ctx.now) })}
                    </span>
                  )}
                </p>
                <p>
                  {t.events}: {webhook.events.join(", ")}
                </p>
                <p>
                  {rate
                    ? format(locale, t.health, {
                        percent: Math.floor((rate.succeeded / rate.attempted) * 100),
                        succeeded: rate.succeeded,
                        attempted: rate.attempted,
                      })
                    : t.healthNone}
                </p>
                <p className="muted">
                  {format(locale, t.created, { date: day.format(webhook.created_at) })}
                  {webhook.secret_rotated_at ? ` · ${format(locale, t.rotated, { date: day.format(webhook.secret_rotated_at) })}` : ""}
                </p>
                <div className="actions">
                  <Link href={`/settings/api/webhooks/${webhook.id}`}>{t.deliveryLog}</Link>
                  <ActionButton action={testWebhookAction} fields={{ id: webhook.id }} label={t.test} pending={t.testing} />
                  {webhook.active ? (
                    <ActionButton action={stopWebhookAction} fields={{ id: webhook.id }} label={t.stop} pending={t.stopping} />
                  ) : (
                    <ActionButton action={startWebhookAction} fields={{ id: webhook.id }} label={t.start} pending={t.starting} />
                  )}
                  <RotateWebhookSecret id={webhook.id} url={webhook.url} texts={formTexts} />
                  <DeleteWebhook id={webhook.id} url={webhook.url} texts={formTexts} />
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <section className="card" aria-labelledby="create-webhook">
        <h2 id="create-webhook">{t.create.heading}</h2>
        {webhooks.length >= maxWebhooksPerAccount ? (
          <p className="notice warning">{format(locale, t.create.full, { limit: maxWebhooksPerAccount })}</p>
        ) : (
          <CreateWebhookForm eventTypes={[...subscribableEventTypes]} localUrls={localUrlsAllowed()} texts={formTexts} />
        )}
      </section>
      {config().APP_ENV === "sandbox" ? (
        <SandboxEventSection ctx={ctx} locale={locale} token={formToken(account, sandboxEventToken, {})} texts={texts} />
      ) : null}
    </>
  );
}
