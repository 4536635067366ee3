"use client";

import { useActionState } from "react";
import { ConfirmAction } from "@/components/forms/confirm-action";
import { Field, FormMessage, SubmitButton } from "@/components/forms/form-kit";
import { FormField } from "@/components/forms/form-field";
import { useFormat } from "@/components/locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { createFeedAction, deleteFeedAction } from "./actions";

type Texts = PageMessages["feeds"];

/** The form adding a feed: its address, mode, cap, interval and the key its imports are written as. */
export function CreateFeedForm({ keys, localUrls, texts }: { keys: { id: string; name: string }[]; localUrls: boolean; texts: Texts }) {
  const [state, action] = useActionState(createFeedAction, {});
  const t = texts.create;
  const kept = state.ok ? undefined : state.values;
  return (
    <form action={action} className="stack" noValidate key={state.ok ? state.message : "form"}>
      <FormMessage state={state} />
      <Field
        name="url"
        label={t.url}
        hint={localUrls ? t.urlHintLocal : t.urlHint}
        state={state.ok ? undefined : state}
        type="url"
        required
        maxLength={2048}
        defaultValue=""
      />
      <FormField id="mode" label={t.mode} hint={t.modeHint} error={state.fieldErrors?.mode}>
        {(control) => (
          <select {...control} name="mode" key={kept?.mode} defaultValue={kept?.mode ?? "upsert"}>
            <option value="upsert">{texts.modes.upsert}</option>
            <option value="full">{texts.modes.full}</option>
          </select>
        )}
      </FormField>
      <Field
        name="max_withdrawals"
        label={t.maxWithdrawals}
        hint={t.maxWithdrawalsHint}
        state={state.ok ? undefined : state}
        type="number"
        min={0}
        inputMode="numeric"
        defaultValue=""
      />
      <Field
        name="interval_minutes"
        label={t.interval}
        hint={t.intervalHint}
        state={state.ok ? undefined : state}
        type="number"
        min={15}
        max={10080}
        inputMode="numeric"
        required
        defaultValue="60"
      />
      <FormField id="key_id" label={t.key} hint={t.keyHint} error={state.fieldErrors?.key_id}>
        {(control) => (
          <select {...control} name="key_id" key={kept?.key_id} defaultValue={kept?.key_id ?? keys[0]?.id}>
            {keys.map((key) => (
              <option key={key.id} value={key.id}>
                {key.name} ({key.id})
              </option>
            ))}
          </select>
        )}
      </FormField>
      <SubmitButton pending={t.submitting}>{t.submit}</SubmitButton>
    </form>
  );
}

export function DeleteFeed({ id, url, texts }: { id: string; url: string; texts: Texts }) {
  const format = useFormat();
  return (
    <ConfirmAction
      action={deleteFeedAction}
      fields={{ id }}
      label={texts.delete}
      labelFor={format(texts.deleteLabel, { url })}
      question={format(texts.deleteQuestion, { url })}
      confirm={texts.deleteConfirm}
      cancel={texts.cancel}
      pending={texts.deleting}
    />
  );
}
