"use client";

import { useActionState } from "react";
import { useFormStatus } from "react-dom";
import { FormMessage } from "@/components/forms/form-kit";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { answerConsent } from "./actions";

export function ConsentForm({ fields, token, texts }: { fields: Record<string, string>; token: string; texts: PageMessages["consent"] }) {
  const [state, action] = useActionState(answerConsent, {});
  return (
    <form action={action} className="stack">
      <FormMessage state={state} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="token" value={token} />
      <Buttons texts={texts} />
    </form>
  );
}

function Buttons({ texts }: { texts: PageMessages["consent"] }) {
  const { pending } = useFormStatus();
  return (
    <div className="actions" aria-live="polite">
      <button type="submit" name="decision" value="allow" disabled={pending}>
        {texts.allow}
      </button>
      <button type="submit" name="decision" value="deny" className="secondary" disabled={pending}>
        {texts.deny}
      </button>
      {pending ? <span className="muted">{texts.pending}</span> : null}
    </div>
  );
}
