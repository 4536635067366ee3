"use server";

import { z } from "zod";
import { triggerSandboxEvent } from "@/lib/domain/listings/trigger-sandbox-event";
import { createWebhook } from "@/lib/domain/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/domain/webhooks/delete-webhook";
import type { webhookFieldsInput } from "@/lib/domain/webhooks/fields";
import { resendDelivery, resendFailedDeliveries } from "@/lib/domain/webhooks/resend-deliveries";
import { rotateWebhookSecret } from "@/lib/domain/webhooks/rotate-webhook-secret";
import { sendTestDelivery, type TestDeliveryResult } from "@/lib/domain/webhooks/send-test-delivery";
import { startWebhook } from "@/lib/domain/webhooks/start-webhook";
import { stopWebhook } from "@/lib/domain/webhooks/stop-webhook";
import { AppError } from "@/lib/base/errors";
import { format, type Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalAction, type PortalAction } from "@/lib/adapters/portal/action";
import { text, texts } from "@/lib/adapters/portal/form-fields";
import type { FormState } from "@/lib/adapters/portal/form-state";
import { sandboxEventToken } from "./sandbox-event-token";

/** An answer that may carry a webhook's new signing secret, shown once. */
export interface WebhookFormState extends FormState {
  secret?: string;
}

const webhooksPath = "/settings/api/webhooks";
const oneWebhook = z.object({ id: text(200) });
const sinceInstant = z.iso.datetime();

export const createWebhookAction: PortalAction<WebhookFormState> = portalAction({
  session: "account",
  input: z.object({ url: text(5000), events: texts() }),
  // React resets a form after its action: the answer carries the address and the ticked events back.
  values: ({ url, events }) => ({ url, events: events.join(" ") }),
  run: async ({ ctx, input, locale }) => {
    // Whatever the form posted: the service's schema refuses an event type it does not know.
    const events = input.events as z.input<typeof webhookFieldsInput>["events"];
    const webhook = await createWebhook({ ctx, input: { url: input.url, events } });
    return {
      ok: true,
      message: format(locale, pageMessages(locale).webhooks.create.created, { url: webhook.url }),
      secret: webhook.secret,
    };
  },
  revalidate: [webhooksPath],
});

/** A test delivery's one attempt, said in the page's language. */
function testAnswer(locale: Locale, result: TestDeliveryResult): FormState {
  const t = pageMessages(locale).webhooks;
  const params = { id: result.event_id, ms: result.duration_ms };
  if (result.ok) return { ok: true, message: format(locale, t.testOk, { ...params, status: result.status ?? "" }) };
  const error = result.error === "status_not_2xx" ? String(result.status) : t.errors[result.error ?? "status_not_2xx"];
  return { ok: false, message: format(locale, t.testFailed, { ...params, error }) };
}

/** The Test button: one signed `webhook.test` now, its result said at once (never retried) and kept in the delivery log. */
export const testWebhookAction = portalAction({
  session: "account",
  input: oneWebhook,
  run: async ({ ctx, input, locale }) => testAnswer(locale, await sendTestDelivery({ ctx, input })),
  // Its row joins the log, and the list's 24-hour success counts it.
  revalidate: ({ id }) => [webhooksPath, [`${webhooksPath}/${id}`, "layout"]],
});

export const stopWebhookAction = portalAction({
  session: "account",
  input: oneWebhook,
  run: async ({ ctx, input, locale }) => {
    await stopWebhook({ ctx, input });
    return { ok: true, message: pageMessages(locale).webhooks.stoppedDone };
  },
  revalidate: [webhooksPath],
});

export const startWebhookAction = portalAction({
  session: "account",
  input: oneWebhook,
  run: async ({ ctx, input, locale }) => {
    await startWebhook({ ctx, input });
    return { ok: true, message: pageMessages(locale).webhooks.startedDone };
  },
  revalidate: [webhooksPath],
});

export const rotateWebhookSecretAction: PortalAction<WebhookFormState> = portalAction({
  session: "account",
  input: oneWebhook,
  run: async ({ ctx, input }) => ({ ok: true, secret: (await rotateWebhookSecret({ ctx, input })).secret }),
  revalidate: [webhooksPath],
});

export const deleteWebhookAction = portalAction({
  session: "account",
  input: oneWebhook,
  run: async ({ ctx, input }) => {
    await deleteWebhook({ ctx, input });
    return { ok: true };
  },
  revalidate: [webhooksPath],
});

/** Resends one delivery; one still being tried answers so, and nothing changes. A test delivery's new attempt is said at once. */
export const resendDeliveryAction = portalAction({
  session: "account",
  input: z.object({ id: text(200), webhook_id: text(200) }),
  run: async ({ ctx, input, locale }) => {
    const t = pageMessages(locale).webhooks.delivery;
    const result = await resendDelivery({ ctx, input: { webhookId: input.webhook_id, id: input.id } });
    if (result.test) return testAnswer(locale, result.test);
    if (!result.resent) return { ok: false, message: t.inFlight };
    return { ok: true, message: result.webhook_active ? t.resent : `${t.resent} ${t.stoppedNote}` };
  },
  revalidate: ({ webhook_id }) => [[`${webhooksPath}/${webhook_id}`, "layout"]],
});

export const resendFailedAction = portalAction({
  session: "account",
  input: z.object({ id: text(200), since: text(100) }),
  values: ({ since }) => ({ since }),
  run: async ({ ctx, input, locale }) => {
    const t = pageMessages(locale).webhooks.log.resendFailed;
    // The start of the period chosen, as the page wrote it (an instant, so the date the page showed is the one used).
    if (!sinceInstant.safeParse(input.since).success)
      return { ok: false, fieldErrors: { since: t.invalidSince }, values: { since: input.since } };
    const since = new Date(input.since);
    const result = await resendFailedDeliveries({ ctx, input: { webhookId: input.id, since } });
    const said = result.resent === 0 ? t.none : format(locale, t.done, { count: result.resent });
    return {
      ok: true,
      message: result.webhook_active || result.resent === 0 ? said : `${said} ${t.stoppedNote}`,
      values: { since: input.since },
    };
  },
  revalidate: ({ id }) => [[`${webhooksPath}/${id}`, "layout"]],
});

/**
 * Sandbox only (the service is 404 in production): one event of one of the account's listings, fired
 * as the product would, through the API's service. The holder types or picks the code, so it is kept
 * as typed but for case and spaces; an empty field is a missing one, as the API says it.
 */
export const triggerSandboxEventAction = portalAction({
  session: "account",
  input: z.object({ type: text(100), code: text(100) }),
  token: sandboxEventToken,
  values: ({ type, code }) => ({ type, code }),
  run: async ({ ctx, input, locale }) => {
    const t = pageMessages(locale).webhooks.sandboxEvent;
    const code = input.code.trim().toUpperCase();
    const event = await triggerSandboxEvent({ ctx, input: { type: input.type || undefined, code: code || undefined } });
    return { ok: true, message: format(locale, t.sent, { id: event.id, type: event.type, code }), values: { type: input.type, code } };
  },
  // A code no listing of the account has: said at the field, in the form's words.
  refused: (error, { locale, values }) => {
    if (!(error instanceof AppError && error.code === "not_found")) return undefined;
    const t = pageMessages(locale).webhooks.sandboxEvent;
    return { ok: false, message: t.notSent, fieldErrors: { code: t.noListing }, values };
  },
});
