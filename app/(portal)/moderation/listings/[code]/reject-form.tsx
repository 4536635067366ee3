"use client";

import { useActionState, useRef, useState } from "react";
import { FormMessage, SubmitButton } from "@/components/forms/form-kit";
import type { PageMessages } from "@/lib/platform/i18n/page-messages";
import { decideAction } from "../../actions";

/**
 * Reject with a reason and one or more codes of the vocabulary, asked twice like every decision:
 * Reject reveals the question with Confirm and Cancel inside the same form, so what was typed and
 * ticked is what gets posted. The service's refusals show at their fields.
 */
export function RejectForm({
  fields,
  codes,
  texts,
}: {
  fields: Record<string, string>;
  codes: { code: string; label: string }[];
  texts: PageMessages["moderation"]["review"];
}) {
  const [asking, setAsking] = useState(false);
  const [state, run] = useActionState(async (previous: Awaited<ReturnType<typeof decideAction>>, form: FormData) => {
    const answer = await decideAction(previous, form);
    setAsking(false);
    return answer;
  }, {});
  const opener = useRef<HTMLButtonElement>(null);
  const chosen = new Set(state.values?.rejection_codes?.split(" ") ?? []);
  const reasonError = state.fieldErrors?.reason;
  const codesError = state.fieldErrors?.rejection_codes;
  return (
    <form action={run} className="stack" noValidate aria-labelledby="reject-heading">
      <h3 id="reject-heading">{texts.rejectHeading}</h3>
      {Object.entries({ ...fields, decision: "reject" }).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <FormMessage state={state} />
      <div className="field">
        <label htmlFor="reject-reason">{texts.reason}</label>
        <textarea
          id="reject-reason"
          name="reason"
          rows={3}
          maxLength={500}
          key={state.values?.reason}
          defaultValue={state.values?.reason}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? "reject-reason-hint reject-reason-error" : "reject-reason-hint"}
        />
        <p className="hint" id="reject-reason-hint">
          {texts.reasonHint}
        </p>
        {reasonError ? (
          <p className="field-error" id="reject-reason-error">
            {reasonError}
          </p>
        ) : null}
      </div>
      <fieldset key={state.values?.rejection_codes} aria-describedby={codesError ? "reject-codes-error" : undefined}>
        <legend>{texts.codes}</legend>
        {codes.map((entry) => (
          <label key={entry.code}>
            <input type="checkbox" name="rejection_codes" value={entry.code} defaultChecked={chosen.has(entry.code)} /> {entry.label}
          </label>
        ))}
        {codesError ? (
          <p className="field-error" id="reject-codes-error">
            {codesError}
          </p>
        ) : null}
      </fieldset>
      {asking ? (
        <div className="actions" role="group" aria-label={texts.rejectQuestion}>
          <span>{texts.rejectQuestion}</span>
          <SubmitButton pending={texts.rejecting} className="danger" autoFocus>
            {texts.confirm}
          </SubmitButton>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setAsking(false);
              requestAnimationFrame(() => opener.current?.focus());
            }}
          >
            {texts.cancel}
          </button>
        </div>
      ) : (
        <div className="actions">
          <button ref={opener} type="button" className="secondary" onClick={() => setAsking(true)}>
            {texts.reject}
          </button>
        </div>
      )}
    </form>
  );
}
