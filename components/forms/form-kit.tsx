"use client";

import { useFormStatus } from "react-dom";
import type { ReactNode } from "react";
import type { FormState } from "@/lib/adapters/portal/form-state";
import { FormField } from "./form-field";

/**
 * A labelled input whose error (from the action's `FormState`) is announced with it: `aria-invalid`
 * and `aria-describedby` point at the error and the hint, so a screen reader reads both with the field.
 */
export function Field({
  name,
  label,
  state,
  hint,
  type = "text",
  defaultValue,
  id = name,
  ...input
}: {
  name: string;
  /** Needed when the page holds the same form more than once (one per app). */
  id?: string;
  label: string;
  state?: FormState;
  hint?: string;
  type?: string;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "name" | "type">) {
  const error = state?.fieldErrors?.[name];
  const kept = type === "password" ? undefined : state?.values?.[name];
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      {(control) => (
        <input
          {...control}
          name={name}
          type={type}
          // A new value after each answer (key) so the kept value replaces what the browser reset.
          key={kept}
          defaultValue={kept ?? defaultValue}
          {...input}
        />
      )}
    </FormField>
  );
}

/** The form's submit button: disabled and relabelled while the action runs, so a double click sends once. */
export function SubmitButton({
  children,
  pending: pendingLabel,
  className,
  autoFocus,
  name,
  value,
  accessibleLabel,
}: {
  children: ReactNode;
  pending: string;
  className?: string;
  autoFocus?: boolean;
  /** For a form with several buttons: which one was pressed reaches the action as `name=value`. */
  name?: string;
  value?: string;
  accessibleLabel?: string;
}) {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      disabled={pending}
      aria-disabled={pending}
      className={className}
      autoFocus={autoFocus}
      name={name}
      value={value}
      // While pending, the visible text (the pending label) is the name.
      aria-label={pending ? undefined : accessibleLabel}
    >
      {pending ? pendingLabel : children}
    </button>
  );
}

/** The form's message: an alert for a refusal, a status for a success. */
export function FormMessage({ state }: { state?: FormState }) {
  if (!state?.message) return null;
  return state.ok ? (
    <p className="notice success" role="status">
      {state.message}
    </p>
  ) : (
    <p className="notice error" role="alert">
      {state.message}
    </p>
  );
}
