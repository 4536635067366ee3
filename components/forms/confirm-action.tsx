"use client";

import { useActionState, useId, useRef, useState, type ReactNode } from "react";
import { SubmitButton } from "./form-kit";
import type { FormState } from "@/lib/adapters/portal/form-state";

/**
 * A destructive action asked twice: the first button reveals the question with Confirm and Cancel
 * (focus moves to Confirm; Cancel or Escape gives it back to the first button), so a slip of the
 * finger or the keyboard does nothing. `fields` are posted as hidden inputs. `children` are further
 * fields posted with the confirmation (a rejection's reason and codes), shown from the start and
 * given the last answer, so they show the refusal at their fields; without them the refusal is
 * announced beside the button. `result` renders what a successful answer carries (a new secret shown once).
 */
export function ConfirmAction<S extends FormState>({
  action,
  fields,
  label,
  labelFor,
  question,
  explanation,
  confirm,
  cancel,
  pending,
  result,
  children,
  className,
  labelledBy,
}: {
  action: (previous: S, form: FormData) => Promise<S>;
  fields: Record<string, string>;
  label: string;
  /** The first button's accessible name when its label alone would not say what it acts on. */
  labelFor?: string;
  /** Left out when the Confirm button's own text is the question. */
  question?: string;
  /** A line saying what confirming will do, read with the question. */
  explanation?: string;
  confirm: string;
  cancel: string;
  pending: string;
  result?: (state: S) => ReactNode;
  children?: (state: S) => ReactNode;
  className?: string;
  labelledBy?: string;
}) {
  const [asking, setAsking] = useState(false);
  const [state, run] = useActionState(async (previous: Awaited<S>, form: FormData): Promise<Awaited<S>> => {
    const answer = await action(previous, form);
    setAsking(false);
    return answer as Awaited<S>;
  }, {} as Awaited<S>);
  const opener = useRef<HTMLButtonElement>(null);
  const explanationId = useId();
  const stopAsking = () => {
    setAsking(false);
    requestAnimationFrame(() => opener.current?.focus());
  };
  return (
    <>
      <form
        action={run}
        className={className}
        aria-labelledby={labelledBy}
        noValidate
        onKeyDown={(event) => {
          if (asking && event.key === "Escape") stopAsking();
        }}
      >
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {children?.(state)}
        {asking ? (
          <div role="group" aria-label={question ?? confirm} aria-describedby={explanation ? explanationId : undefined}>
            {explanation ? (
              <p className="hint" id={explanationId}>
                {explanation}
              </p>
            ) : null}
            <div className="actions">
              {question ? <span>{question}</span> : null}
              <SubmitButton pending={pending} className="danger" autoFocus>
                {confirm}
              </SubmitButton>
              <button type="button" className="secondary" onClick={stopAsking}>
                {cancel}
              </button>
            </div>
          </div>
        ) : (
          <button ref={opener} type="button" className="secondary" aria-label={labelFor} onClick={() => setAsking(true)}>
            {label}
          </button>
        )}
      </form>
      {state.message && !state.ok && !children ? (
        <span role="alert" className="field-error">
          {state.message}
        </span>
      ) : null}
      {state.ok && result ? result(state) : null}
    </>
  );
}
