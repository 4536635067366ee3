"use client";

import { useActionState } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/forms/form-kit";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { reportListingAction } from "./actions";
import "./report.css";

/** "Report this listing", folded until asked for; once sent, only the thanks remains. */
export function ReportForm({ code, texts }: { code: string; texts: PageMessages["listing"]["report"] }) {
  const [state, action] = useActionState(reportListingAction, {});
  const error = state.fieldErrors?.reason;
  return (
    <details className="report" open={Boolean(state.message || state.fieldErrors)}>
      <summary>{texts.title}</summary>
      {state.ok ? (
        <FormMessage state={state} />
      ) : (
        <form action={action} className="stack" noValidate>
          <input type="hidden" name="code" value={code} />
          <FormMessage state={state} />
          <div className="field">
            <label htmlFor="reason">{texts.reason}</label>
            <textarea
              id="reason"
              name="reason"
              rows={4}
              maxLength={1000}
              required
              defaultValue={state.values?.reason}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "reason-error" : "reason-hint"}
            />
            {error ? (
              <p className="field-error" id="reason-error">
                {error}
              </p>
            ) : (
              <p className="hint" id="reason-hint">
                {texts.reasonHint}
              </p>
            )}
          </div>
          <Field name="reporterEmail" label={texts.email} hint={texts.emailHint} state={state} type="email" autoComplete="email" />
          <SubmitButton pending={texts.pending}>{texts.submit}</SubmitButton>
        </form>
      )}
    </details>
  );
}
