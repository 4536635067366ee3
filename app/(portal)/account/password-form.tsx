"use client";

import { useActionState } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/forms/form-kit";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { changeOwnPassword } from "./actions";

export function PasswordForm({ texts, hint }: { texts: PageMessages["account"]["password"]; hint: string }) {
  const [state, action] = useActionState(changeOwnPassword, {});
  return (
    <form action={action} className="stack" noValidate>
      <FormMessage state={state} />
      <Field name="current_password" label={texts.current} state={state} type="password" autoComplete="current-password" required />
      <Field
        name="new_password"
        label={texts.new}
        hint={hint}
        state={state}
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
      />
      <SubmitButton pending={texts.pending}>{texts.submit}</SubmitButton>
    </form>
  );
}
