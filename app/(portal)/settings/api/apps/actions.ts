"use server";

import { revalidatePath } from "next/cache";
import { requestLocale } from "@/app/locale";
import { registerClient } from "@/lib/domain/oauth/register-client";
import { rotateClientSecret } from "@/lib/domain/oauth/rotate-client-secret";
import { updateClientRedirectUris } from "@/lib/domain/oauth/update-client-redirect-uris";
import { setAppWebhook, type setAppWebhookInput } from "@/lib/domain/webhooks/set-app-webhook";
import type { z } from "zod";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";
import { requireAccount } from "@/lib/adapters/portal/session";

/** An answer that may carry an app's credentials, the secret shown this once. */
export interface AppFormState extends FormState {
  credentials?: { name: string; clientId: string; clientSecret: string };
  /** A new app webhook's signing secret, shown once. */
  webhookSecret?: string;
}

const lines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

export async function registerApp(_previous: AppFormState, form: FormData): Promise<AppFormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const values = { name: formText(form, "name", 500), redirect_uris: formText(form, "redirect_uris", 30_000) };
  try {
    const app = await registerClient({ ctx, input: { name: values.name, redirect_uris: lines(values.redirect_uris) } });
    revalidatePath("/settings/api/apps");
    return {
      ok: true,
      message: format(pageMessages(locale).apps.registered, { name: app.name }),
      credentials: { name: app.name, clientId: app.client_id, clientSecret: app.client_secret },
    };
  } catch (error) {
    return refusalState(error, locale, values);
  }
}

export async function rotateAppSecret(_previous: AppFormState, form: FormData): Promise<AppFormState> {
  const { ctx } = await requireAccount();
  try {
    const rotated = await rotateClientSecret({ ctx, input: { client_id: formText(form, "client_id", 200) } });
    revalidatePath("/settings/api/apps");
    return {
      ok: true,
      credentials: { name: formText(form, "name", 200), clientId: rotated.client_id, clientSecret: rotated.client_secret },
    };
  } catch (error) {
    return refusalState(error, await requestLocale());
  }
}

export async function saveRedirectUris(_previous: FormState, form: FormData): Promise<FormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const values = { redirect_uris: formText(form, "redirect_uris", 30_000) };
  try {
    await updateClientRedirectUris({
      ctx,
      input: { client_id: formText(form, "client_id", 200), redirect_uris: lines(values.redirect_uris) },
    });
    revalidatePath("/settings/api/apps");
    return { ok: true, message: format(pageMessages(locale).apps.saved, { name: formText(form, "name", 200) }), values };
  } catch (error) {
    return refusalState(error, locale, values);
  }
}

/** The app's webhook: created (its secret shown once) or changed (address and events; the secret stays). */
export async function saveAppWebhook(_previous: AppFormState, form: FormData): Promise<AppFormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  // React resets a form after its action: the answer carries the ticked events back, as it does the address.
  const values = { url: formText(form, "url", 5000), events: checkedEvents(form).join(" ") };
  try {
    const webhook = await setAppWebhook({
      ctx,
      input: { client_id: formText(form, "client_id", 200), url: values.url, events: checkedEvents(form) },
    });
    revalidatePath("/settings/api/apps");
    return {
      ok: true,
      message: format(pageMessages(locale).apps.webhook.saved, { name: formText(form, "name", 200) }),
      values,
      ...(webhook.secret ? { webhookSecret: webhook.secret } : {}),
    };
  } catch (error) {
    return refusalState(error, locale, values);
  }
}

// Whatever the form posted: the service's schema refuses an event type it does not know (422 at /events).
const checkedEvents = (form: FormData) => form.getAll("events").map(String) as z.input<typeof setAppWebhookInput>["events"];
