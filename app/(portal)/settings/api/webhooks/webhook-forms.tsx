"use client";

import { useActionState } from "react";
import { ConfirmAction } from "@/components/forms/confirm-action";
import { Field, FormMessage, SubmitButton } from "@/components/forms/form-kit";
import { FormField } from "@/components/forms/form-field";
import { SecretOnce } from "@/components/secret-once";
import { useFormat } from "@/components/locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { createWebhookAction, deleteWebhookAction, resendFailedAction, rotateWebhookSecretAction } from "./actions";

type Texts = Pick<PageMessages, "webhooks" | "secret">;

/** `localUrls`: the server accepts loopback addresses (UNSAFE_ALLOW_LOCAL_URLS), so the address's hint says so. */
export function CreateWebhookForm({ eventTypes, localUrls, texts }: { eventTypes: string[]; localUrls: boolean; texts: Texts }) {
  const [state, action] = useActionState(createWebhookAction, {});
  const t = texts.webhooks.create;
  const kept = state.ok ? undefined : state.values?.events;
  const chosen = new Set(kept ? kept.split(" ") : []);
  return (
    <>
      {state.ok && state.secret ? (
        <div className="stack">
          <p role="status">{state.message}</p>
          <SecretOnce label={texts.webhooks.secret} value={state.secret} stored="encrypted" texts={texts.secret} />
        </div>
      ) : null}
      <form action={action} className="stack" noValidate key={state.ok ? state.secret : "form"}>
        {state.ok ? null : <FormMessage state={state} />}
        <Field
          name="url"
          label={t.url}
          hint={localUrls ? t.urlHintLocal : t.urlHint}
          state={state.ok ? undefined : state}
          type="url"
          required
          maxLength={2048}
          defaultValue={state.ok ? "" : (state.values?.url ?? "")}
        />
        <fieldset key={kept} aria-describedby={state.fieldErrors?.events ? "events-hint events-error" : "events-hint"}>
          <legend>{t.events}</legend>
          <p className="hint" id="events-hint">
            {t.eventsHint}
          </p>
          {eventTypes.map((type) => (
            <label key={type}>
              <input type="checkbox" name="events" value={type} defaultChecked={chosen.has(type)} /> <code>{type}</code>
            </label>
          ))}
          {state.fieldErrors?.events ? (
            <p className="field-error" id="events-error">
              {state.fieldErrors.events}
            </p>
          ) : null}
        </fieldset>
        <SubmitButton pending={t.submitting}>{t.submit}</SubmitButton>
      </form>
    </>
  );
}

export function RotateWebhookSecret({ id, url, texts }: { id: string; url: string; texts: Texts }) {
  const format = useFormat();

  const t = texts.webhooks;
  return (
    <ConfirmAction
      action={rotateWebhookSecretAction}
      fields={{ id }}
      label={t.rotate}
      question={format(t.rotateQuestion, { url })}
      confirm={t.rotateConfirm}
      cancel={t.cancel}
      pending={t.rotating}
      result={(state) =>
        state.secret ? (
          <div className="stack">
            <p role="status">{format(t.rotatedNotice, { url })}</p>
            <SecretOnce label={t.secret} value={state.secret} stored="encrypted" texts={texts.secret} />
          </div>
        ) : null
      }
    />
  );
}

export function DeleteWebhook({ id, url, texts }: { id: string; url: string; texts: Texts }) {
  const format = useFormat();

  const t = texts.webhooks;
  return (
    <ConfirmAction
      action={deleteWebhookAction}
      fields={{ id }}
      label={t.delete}
      question={format(t.deleteQuestion, { url })}
      confirm={t.deleteConfirm}
      cancel={t.cancel}
      pending={t.deleting}
    />
  );
}

/**
 * Resends a webhook's failed deliveries made in a period chosen from a list, each period with the
 * date it starts written as every date of the portal (a `datetime-local` field shows the browser's
 * own format, `11/28/2026, 08:41 AM`, whatever the page's language).
 */
export function ResendFailedForm({
  id,
  periods,
  defaultSince,
  texts,
}: {
  id: string;
  periods: { value: string; label: string }[];
  defaultSince: string;
  texts: Texts;
}) {
  const [state, action] = useActionState(resendFailedAction, {});
  const t = texts.webhooks.log.resendFailed;
  const chosen = state.values?.since ?? defaultSince;
  return (
    <form action={action} className="stack" noValidate>
      <FormMessage state={state.fieldErrors ? undefined : state} />
      <input type="hidden" name="id" value={id} />
      <FormField id="since" label={t.since} hint={t.sinceHint} error={state.fieldErrors?.since}>
        {(control) => (
          <select {...control} name="since" key={chosen} defaultValue={chosen}>
            {periods.map((period) => (
              <option key={period.value} value={period.value}>
                {period.label}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <SubmitButton pending={t.submitting}>{t.submit}</SubmitButton>
    </form>
  );
}
