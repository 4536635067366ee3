"use client";

import { useActionState } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/forms/form-kit";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { createAccount } from "./actions";

export function SignupForm({ texts }: { texts: PageMessages["access"] }) {
  const [state, action] = useActionState(createAccount, {});
  if (state.ok) return <FormMessage state={state} />;
  return (
    <form action={action} className="stack" noValidate>
      <FormMessage state={state} />
      <Field name="name" label={texts.name} state={state} autoComplete="name" required maxLength={120} />
      <Field name="email" label={texts.email} state={state} type="email" autoComplete="email" required />
      <Field
        name="password"
        label={texts.password}
        hint={texts.passwordHint}
        state={state}
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
      />
      <SubmitButton pending={texts.signup.pending}>{texts.signup.submit}</SubmitButton>
    </form>
  );
}
