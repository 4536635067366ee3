"use client";

import { useActionState, useRef, useState } from "react";
import { SubmitButton } from "./form-kit";
import type { FormState } from "@/lib/portal/form-state";

/**
 * A destructive action asked twice: the first button reveals the question with Confirm and Cancel
 * (focus moves to Confirm, Cancel returns it), so a slip of the finger or the keyboard does nothing.
 * `fields` are posted as hidden inputs; the action's refusal is announced beside the buttons.
 */
export function ConfirmAction({
  action,
  fields,
  label,
  question,
  confirm,
  cancel,
  pending,
}: {
  action: (previous: FormState, form: FormData) => Promise<FormState>;
  fields: Record<string, string>;
  label: string;
  question: string;
  confirm: string;
  cancel: string;
  pending: string;
}) {
  const [state, run] = useActionState(action, {});
  const [asking, setAsking] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  if (!asking) {
    return (
      <>
        <button ref={opener} type="button" className="secondary" onClick={() => setAsking(true)}>
          {label}
        </button>
        {state.message ? (
          <span role="alert" className="field-error">
            {state.message}
          </span>
        ) : null}
      </>
    );
  }
  return (
    <form action={run} className="actions" role="group" aria-label={question}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <span>{question}</span>
      <SubmitButton pending={pending} className="danger" autoFocus>
        {confirm}
      </SubmitButton>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          setAsking(false);
          requestAnimationFrame(() => opener.current?.focus());
        }}
      >
        {cancel}
      </button>
    </form>
  );
}
