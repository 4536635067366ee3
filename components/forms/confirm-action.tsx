"use client";

import { useActionState, useRef, useState, type ReactNode } from "react";
import { SubmitButton } from "./form-kit";
import type { FormState } from "@/lib/portal/form-state";

/**
 * A destructive action asked twice: the first button reveals the question with Confirm and Cancel
 * (focus moves to Confirm, Cancel returns it), so a slip of the finger or the keyboard does nothing.
 * `fields` are posted as hidden inputs; the action's refusal is announced beside the buttons, and
 * `result` renders what a successful answer carries (a new secret shown once).
 */
export function ConfirmAction<S extends FormState>({
  action,
  fields,
  label,
  question,
  confirm,
  cancel,
  pending,
  result,
}: {
  action: (previous: S, form: FormData) => Promise<S>;
  fields: Record<string, string>;
  label: string;
  question: string;
  confirm: string;
  cancel: string;
  pending: string;
  result?: (state: S) => ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  const [state, run] = useActionState(async (previous: Awaited<S>, form: FormData): Promise<Awaited<S>> => {
    const answer = await action(previous, form);
    setAsking(false);
    return answer as Awaited<S>;
  }, {} as Awaited<S>);
  const opener = useRef<HTMLButtonElement>(null);
  if (!asking) {
    return (
      <>
        <button ref={opener} type="button" className="secondary" onClick={() => setAsking(true)}>
          {label}
        </button>
        {state.message && !state.ok ? (
          <span role="alert" className="field-error">
            {state.message}
          </span>
        ) : null}
        {state.ok && result ? result(state) : null}
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
