"use server";

import { z } from "zod";
import { registerClient } from "@/lib/domain/oauth/register-client";
import { rotateClientSecret } from "@/lib/domain/oauth/rotate-client-secret";
import { updateClientRedirectUris } from "@/lib/domain/oauth/update-client-redirect-uris";
import { setAppWebhook, type setAppWebhookInput } from "@/lib/domain/webhooks/set-app-webhook";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalAction, type PortalAction } from "@/lib/adapters/portal/action";
import { text, texts } from "@/lib/adapters/portal/form-fields";
import type { FormState } from "@/lib/adapters/portal/form-state";

/** An answer that may carry an app's credentials, the secret shown this once. */
export interface AppFormState extends FormState {
  credentials?: { name: string; clientId: string; clientSecret: string };
  /** A new app webhook's signing secret, shown once. */
  webhookSecret?: string;
}

const appsPath = "/settings/api/apps";

const lines = (posted: string): string[] =>
  posted
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

export const registerApp: PortalAction<AppFormState> = portalAction({
  session: "account",
  input: z.object({ name: text(500), redirect_uris: text(30_000) }),
  values: (input) => input,
  run: async ({ ctx, input, locale }) => {
    const app = await registerClient({ ctx, input: { name: input.name, redirect_uris: lines(input.redirect_uris) } });
    return {
      ok: true,
      message: format(locale, pageMessages(locale).apps.registered, { name: app.name }),
      credentials: { name: app.name, clientId: app.client_id, clientSecret: app.client_secret },
    };
  },
  revalidate: [appsPath],
});

export const rotateAppSecret: PortalAction<AppFormState> = portalAction({
  session: "account",
  input: z.object({ client_id: text(200), name: text(200) }),
  run: async ({ ctx, input }) => {
    const rotated = await rotateClientSecret({ ctx, input: { client_id: input.client_id } });
    return { ok: true, credentials: { name: input.name, clientId: rotated.client_id, clientSecret: rotated.client_secret } };
  },
  revalidate: [appsPath],
});

export const saveRedirectUris = portalAction({
  session: "account",
  input: z.object({ client_id: text(200), name: text(200), redirect_uris: text(30_000) }),
  values: ({ redirect_uris }) => ({ redirect_uris }),
  run: async ({ ctx, input, locale }) => {
    await updateClientRedirectUris({ ctx, input: { client_id: input.client_id, redirect_uris: lines(input.redirect_uris) } });
    return {
      ok: true,
      message: format(locale, pageMessages(locale).apps.saved, { name: input.name }),
      values: { redirect_uris: input.redirect_uris },
    };
  },
  revalidate: [appsPath],
});

// React resets a form after its action: the answer carries the ticked events back, as it does the address.
const webhookValues = ({ url, events }: { url: string; events: string[] }) => ({ url, events: events.join(" ") });

/** The app's webhook: created (its secret shown once) or changed (address and events; the secret stays). */
export const saveAppWebhook: PortalAction<AppFormState> = portalAction({
  session: "account",
  input: z.object({ client_id: text(200), name: text(200), url: text(5000), events: texts() }),
  values: webhookValues,
  run: async ({ ctx, input, locale }) => {
    // Whatever the form posted: the service's schema refuses an event type it does not know (422 at /events).
    const events = input.events as z.input<typeof setAppWebhookInput>["events"];
    const webhook = await setAppWebhook({ ctx, input: { client_id: input.client_id, url: input.url, events } });
    return {
      ok: true,
      message: format(locale, pageMessages(locale).apps.webhook.saved, { name: input.name }),
      values: webhookValues(input),
      ...(webhook.secret ? { webhookSecret: webhook.secret } : {}),
    };
  },
  revalidate: [appsPath],
});
