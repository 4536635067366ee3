"use client";

import { useActionState } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/forms/form-kit";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { requestLink, setNewPassword } from "./actions";

export function RequestLinkForm({ texts }: { texts: PageMessages["access"] }) {
  const [state, action] = useActionState(requestLink, {});
  if (state.ok) return <FormMessage state={state} />;
  return (
    <form action={action} className="stack" noValidate>
      <FormMessage state={state} />
      <Field name="email" label={texts.email} state={state} type="email" autoComplete="email" required />
      <SubmitButton pending={texts.reset.pending}>{texts.reset.submit}</SubmitButton>
    </form>
  );
}

export function NewPasswordForm({ token, texts }: { token: string; texts: PageMessages["access"] }) {
  const [state, action] = useActionState(setNewPassword, {});
  return (
    <form action={action} className="stack" noValidate>
      <FormMessage state={state} />
      {state.fieldErrors?.token ? (
        <p className="notice error" role="alert">
          {state.fieldErrors.token}
        </p>
      ) : null}
      <input type="hidden" name="token" value={token} />
      <Field
        name="password"
        label={texts.reset.newPassword}
        hint={texts.passwordHint}
        state={state}
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
      />
      <SubmitButton pending={texts.reset.saving}>{texts.reset.save}</SubmitButton>
    </form>
  );
}
