"use client";

import { useActionState } from "react";
import { ConfirmAction } from "@/components/forms/confirm-action";
import { Field, FormMessage, SubmitButton } from "@/components/forms/form-kit";
import { SecretOnce } from "@/components/secret-once";
import { useFormat } from "@/components/locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { registerApp, rotateAppSecret, saveAppWebhook, saveRedirectUris, type AppFormState } from "./actions";

type Texts = Pick<PageMessages, "apps" | "secret">;

function Credentials({ state, texts, intro }: { state: AppFormState; texts: Texts; intro?: string }) {
  if (!state.credentials) return null;
  return (
    <div className="stack">
      {intro ? <p role="status">{intro}</p> : null}
      <p>
        {texts.apps.clientId}: <code data-client-id>{state.credentials.clientId}</code>
      </p>
      <SecretOnce label={texts.apps.clientSecret} value={state.credentials.clientSecret} stored="hashed" texts={texts.secret} />
    </div>
  );
}

export function RegisterAppForm({ texts }: { texts: Texts }) {
  const [state, action] = useActionState(registerApp, {});
  return (
    <>
      {state.ok ? <Credentials state={state} texts={texts} intro={state.message} /> : null}
      <form action={action} className="stack" noValidate key={state.credentials?.clientId}>
        {state.ok ? null : <FormMessage state={state} />}
        <Field
          name="name"
          label={texts.apps.name}
          hint={texts.apps.nameHint}
          state={state.ok ? undefined : state}
          required
          maxLength={100}
        />
        <div className="field">
          <label htmlFor="redirect_uris">{texts.apps.redirectUris}</label>
          <textarea
            id="redirect_uris"
            name="redirect_uris"
            rows={3}
            required
            defaultValue={state.ok ? "" : state.values?.redirect_uris}
            aria-invalid={state.fieldErrors?.redirect_uris ? true : undefined}
            aria-describedby={state.fieldErrors?.redirect_uris ? "redirect_uris-hint redirect_uris-error" : "redirect_uris-hint"}
          />
          <p className="hint" id="redirect_uris-hint">
            {texts.apps.redirectUrisHint}
          </p>
          {state.fieldErrors?.redirect_uris ? (
            <p className="field-error" id="redirect_uris-error">
              {state.fieldErrors.redirect_uris}
            </p>
          ) : null}
        </div>
        <SubmitButton pending={texts.apps.registering}>{texts.apps.register}</SubmitButton>
      </form>
    </>
  );
}

export function RotateSecret({ clientId, name, texts }: { clientId: string; name: string; texts: Texts }) {
  const format = useFormat();

  return (
    <ConfirmAction
      action={rotateAppSecret}
      fields={{ client_id: clientId, name }}
      label={texts.apps.rotate}
      question={format(texts.apps.rotateQuestion, { name })}
      confirm={texts.apps.rotateConfirm}
      cancel={texts.apps.cancel}
      pending={texts.apps.rotating}
      result={(state) => <Credentials state={state} texts={texts} intro={format(texts.apps.rotatedNotice, { name })} />}
    />
  );
}

export function RedirectUrisForm({ clientId, name, uris, texts }: { clientId: string; name: string; uris: string[]; texts: Texts }) {
  const [state, action] = useActionState(saveRedirectUris, {});
  const id = `uris-${clientId}`;
  return (
    <details>
      <summary>{texts.apps.editUris}</summary>
      <form action={action} className="stack" noValidate>
        <FormMessage state={state} />
        <input type="hidden" name="client_id" value={clientId} />
        <input type="hidden" name="name" value={name} />
        <label htmlFor={id}>{texts.apps.redirectUris}</label>
        <textarea
          id={id}
          name="redirect_uris"
          rows={3}
          defaultValue={state.values?.redirect_uris ?? uris.join("\n")}
          aria-invalid={state.fieldErrors?.redirect_uris ? true : undefined}
          aria-describedby={state.fieldErrors?.redirect_uris ? `${id}-error` : undefined}
        />
        {state.fieldErrors?.redirect_uris ? (
          <p className="field-error" id={`${id}-error`}>
            {state.fieldErrors.redirect_uris}
          </p>
        ) : null}
        <SubmitButton pending={texts.apps.saving}>{texts.apps.save}</SubmitButton>
      </form>
    </details>
  );
}

export function AppWebhookForm({
  clientId,
  name,
  current,
  eventTypes,
  texts,
}: {
  clientId: string;
  name: string;
  current: { url: string; events: string[] } | null;
  eventTypes: string[];
  texts: Texts;
}) {
  const [state, action] = useActionState(saveAppWebhook, {});
  const id = `webhook-${clientId}`;
  const kept = state.values?.events;
  const chosen = new Set(kept === undefined ? (current?.events ?? []) : kept.split(" "));
  return (
    <details>
      <summary>{texts.apps.webhook.title}</summary>
      <p className="muted">{texts.apps.webhook.intro}</p>
      {state.webhookSecret ? (
        <SecretOnce label={texts.apps.webhook.secret} value={state.webhookSecret} stored="encrypted" texts={texts.secret} />
      ) : null}
      <form action={action} className="stack" noValidate>
        <FormMessage state={state} />
        <input type="hidden" name="client_id" value={clientId} />
        <input type="hidden" name="name" value={name} />
        <Field
          name="url"
          id={`${id}-url`}
          label={texts.apps.webhook.url}
          hint={texts.apps.webhook.urlHint}
          state={state}
          type="url"
          defaultValue={current?.url ?? ""}
        />
        <fieldset key={kept} aria-describedby={state.fieldErrors?.events ? `${id}-events-error` : undefined}>
          <legend>{texts.apps.webhook.events}</legend>
          {eventTypes.map((type) => (
            <label key={type}>
              <input type="checkbox" name="events" value={type} defaultChecked={chosen.has(type)} />
              <code>{type}</code>
            </label>
          ))}
        </fieldset>
        {state.fieldErrors?.events ? (
          <p className="field-error" id={`${id}-events-error`}>
            {state.fieldErrors.events}
          </p>
        ) : null}
        <SubmitButton pending={texts.apps.webhook.saving}>{texts.apps.webhook.save}</SubmitButton>
      </form>
    </details>
  );
}
