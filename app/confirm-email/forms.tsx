"use client";

import { useActionState } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/forms/form-kit";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { confirmAddress, sendNewLink } from "./actions";

export function ConfirmForm({ token, texts }: { token: string; texts: PageMessages["access"]["confirm"] }) {
  const [state, action] = useActionState(confirmAddress, {});
  return (
    <form action={action} className="stack">
      <FormMessage state={state} />
      {state.fieldErrors?.token ? (
        <p className="notice error" role="alert">
          {state.fieldErrors.token}
        </p>
      ) : null}
      <input type="hidden" name="token" value={token} />
      <SubmitButton pending={texts.confirming}>{texts.confirm}</SubmitButton>
    </form>
  );
}

export function ResendForm({ email, texts }: { email: string; texts: PageMessages["access"] }) {
  const [state, action] = useActionState(sendNewLink, {});
  if (state.ok) return <FormMessage state={state} />;
  return (
    <form action={action} className="stack" noValidate>
      <FormMessage state={state} />
      <Field name="email" label={texts.email} state={state} type="email" autoComplete="email" defaultValue={email} required />
      <SubmitButton pending={texts.confirm.pending}>{texts.confirm.submit}</SubmitButton>
    </form>
  );
}
