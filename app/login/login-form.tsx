"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/forms/form-kit";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { logIn } from "./actions";

export function LoginForm({ texts, next }: { texts: PageMessages["access"]; next: string }) {
  const [state, action] = useActionState(logIn, {});
  return (
    <form action={action} className="stack" noValidate>
      <FormMessage state={state} />
      {state.code === "email_unconfirmed" ? (
        <p>
          <Link href={`/confirm-email?email=${encodeURIComponent(state.values?.email ?? "")}`}>{texts.login.resend}</Link>
        </p>
      ) : null}
      <input type="hidden" name="next" value={next} />
      <Field name="email" label={texts.email} state={state} type="email" autoComplete="username" required />
      <Field name="password" label={texts.password} state={state} type="password" autoComplete="current-password" required />
      <SubmitButton pending={texts.login.pending}>{texts.login.submit}</SubmitButton>
    </form>
  );
}
