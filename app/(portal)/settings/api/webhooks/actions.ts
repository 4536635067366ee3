"use server";

import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { requestLocale } from "@/app/locale";
import { createWebhook } from "@/lib/domain/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/domain/webhooks/delete-webhook";
import type { webhookFieldsInput } from "@/lib/domain/webhooks/fields";
import { resendDelivery, resendFailedDeliveries } from "@/lib/domain/webhooks/resend-deliveries";
import { rotateWebhookSecret } from "@/lib/domain/webhooks/rotate-webhook-secret";
import { sendTestDelivery } from "@/lib/domain/webhooks/send-test-delivery";
import { startWebhook } from "@/lib/domain/webhooks/start-webhook";
import { stopWebhook } from "@/lib/domain/webhooks/stop-webhook";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { bucharestLocalTime } from "@/lib/adapters/portal/dates";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";
import { requireAccount } from "@/lib/adapters/portal/session";

/** An answer that may carry a webhook's new signing secret, shown once. */
export interface WebhookFormState extends FormState {
  secret?: string;
}

const webhooksPath = "/settings/api/webhooks";
const id = (form: FormData) => formText(form, "id", 200);

export async function createWebhookAction(_previous: WebhookFormState, form: FormData): Promise<WebhookFormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const events = form.getAll("events").map(String) as z.input<typeof webhookFieldsInput>["events"];
  // React resets a form after its action: the answer carries the address and the ticked events back.
  const values = { url: formText(form, "url", 5000), events: events.join(" ") };
  try {
    const webhook = await createWebhook({ ctx, input: { url: values.url, events } });
    revalidatePath(webhooksPath);
    return { ok: true, message: format(pageMessages(locale).webhooks.create.created, { url: webhook.url }), secret: webhook.secret };
  } catch (error) {
    return refusalState(error, locale, values);
  }
}

/** The Test button: one signed `webhook.test` now, its result said at once (never retried). */
export async function testWebhookAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const t = pageMessages(locale).webhooks;
  try {
    const result = await sendTestDelivery({ ctx, input: { id: id(form) } });
    const params = { id: result.event_id, ms: result.duration_ms };
    if (result.ok) return { ok: true, message: format(t.testOk, { ...params, status: result.status ?? "" }) };
    const error = result.error === "status_not_2xx" ? String(result.status) : t.errors[result.error ?? "status_not_2xx"];
    return { ok: false, message: format(t.testFailed, { ...params, error }) };
  } catch (error) {
    return refusalState(error, locale);
  }
}

export async function stopWebhookAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  try {
    await stopWebhook({ ctx, input: { id: id(form) } });
    revalidatePath(webhooksPath);
    return { ok: true, message: pageMessages(locale).webhooks.stoppedDone };
  } catch (error) {
    return refusalState(error, locale);
  }
}

export async function startWebhookAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  try {
    await startWebhook({ ctx, input: { id: id(form) } });
    revalidatePath(webhooksPath);
    return { ok: true, message: pageMessages(locale).webhooks.startedDone };
  } catch (error) {
    return refusalState(error, locale);
  }
}

export async function rotateWebhookSecretAction(_previous: WebhookFormState, form: FormData): Promise<WebhookFormState> {
  const { ctx } = await requireAccount();
  try {
    const rotated = await rotateWebhookSecret({ ctx, input: { id: id(form) } });
    revalidatePath(webhooksPath);
    return { ok: true, secret: rotated.secret };
  } catch (error) {
    return refusalState(error, await requestLocale());
  }
}

export async function deleteWebhookAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { ctx } = await requireAccount();
  try {
    await deleteWebhook({ ctx, input: { id: id(form) } });
    revalidatePath(webhooksPath);
    return { ok: true };
  } catch (error) {
    return refusalState(error, await requestLocale());
  }
}

export async function resendDeliveryAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const t = pageMessages(locale).webhooks.delivery;
  const webhookId = formText(form, "webhook_id", 200);
  try {
    const result = await resendDelivery({ ctx, input: { webhookId, id: id(form) } });
    revalidatePath(`${webhooksPath}/${webhookId}`, "layout");
    if (!result.resent) return { ok: false, message: t.inFlight };
    return { ok: true, message: result.webhook_active ? t.resent : `${t.resent} ${t.stoppedNote}` };
  } catch (error) {
    return refusalState(error, locale);
  }
}

export async function resendFailedAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const t = pageMessages(locale).webhooks.log.resendFailed;
  const values = { since: formText(form, "since", 100) };
  const since = bucharestLocalTime(values.since);
  if (!since) return { ok: false, fieldErrors: { since: t.invalidSince }, values };
  const webhookId = id(form);
  try {
    const result = await resendFailedDeliveries({ ctx, input: { webhookId, since } });
    revalidatePath(`${webhooksPath}/${webhookId}`, "layout");
    const said = result.resent === 0 ? t.none : format(t.done, { count: result.resent });
    return { ok: true, message: result.webhook_active || result.resent === 0 ? said : `${said} ${t.stoppedNote}`, values };
  } catch (error) {
    return refusalState(error, locale, values);
  }
}
