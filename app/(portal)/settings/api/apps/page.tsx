import type { Metadata } from "next";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { listOwnClients } from "@/lib/domain/oauth/list-own-clients";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { requireAccount } from "@/lib/adapters/portal/session";
import { listWebhooks } from "@/lib/domain/webhooks/list-webhooks";
import { subscribableEventTypes } from "@/lib/domain/webhooks/fields";
import { AppWebhookForm, RedirectUrisForm, RegisterAppForm, RotateSecret } from "./app-forms";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).apps.title };
}

/** The account's integrator apps: register one (its secret shown once), replace a secret, change redirect addresses. */
export default async function AppsPage() {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const { apps: texts, secret } = pageMessages(locale);
  const [apps, webhooks] = await Promise.all([listOwnClients({ ctx }), listWebhooks({ ctx })]);
  const webhookOf = (clientId: string) => webhooks.find((webhook) => webhook.client_id === clientId) ?? null;
  return (
    <>
      <h1>{texts.title}</h1>
      <p>{texts.intro}</p>
      {apps.length === 0 ? (
        <p className="empty">{texts.empty}</p>
      ) : (
        <ul className="plain">
          {apps.map((app) => (
            <li key={app.client_id} className="card">
              <h2>{app.name}</h2>
              <p>
                {texts.clientId}: <code>{app.client_id}</code>
              </p>
              <p className="muted">
                {format(locale, texts.created, { date: portalDateTime(locale, "day").format(app.created_at) })}
                {app.secret_rotated_at
                  ? ` · ${format(locale, texts.rotated, { date: portalDateTime(locale, "day").format(app.secret_rotated_at) })}`
                  : ""}
              </p>
              <p>{texts.redirectUris}:</p>
              <ul>
                {app.redirect_uris.map((uri) => (
                  <li key={uri}>
                    <code>{uri}</code>
                  </li>
                ))}
              </ul>
              <div className="actions">
                <RotateSecret clientId={app.client_id} name={app.name} texts={{ apps: texts, secret }} />
              </div>
              <p className="muted">
                {(() => {
                  const webhook = webhookOf(app.client_id);
                  if (!webhook) return texts.webhook.none;
                  const sends = format(locale, texts.webhook.current, { events: webhook.events.join(", "), url: webhook.url });
                  return webhook.active ? sends : `${sends} (${texts.webhook.stopped})`;
                })()}
              </p>
              <RedirectUrisForm clientId={app.client_id} name={app.name} uris={app.redirect_uris} texts={{ apps: texts, secret }} />
              <AppWebhookForm
                clientId={app.client_id}
                name={app.name}
                current={webhookOf(app.client_id)}
                eventTypes={[...subscribableEventTypes]}
                texts={{ apps: texts, secret }}
              />
            </li>
          ))}
        </ul>
      )}
      <section className="card" aria-labelledby="register-app">
        <h2 id="register-app">{texts.registerTitle}</h2>
        <RegisterAppForm texts={{ apps: texts, secret }} />
      </section>
    </>
  );
}
