"use client";

import { useActionState } from "react";
import { FormMessage, SubmitButton } from "./form-kit";
import type { FormState } from "@/lib/adapters/portal/form-state";

/**
 * One button posting `fields` to a server action that needs no question first (a test, a stop that
 * can be undone, a resend); the action's answer is said beside it.
 */
export function ActionButton({
  action,
  fields,
  label,
  pending,
  accessibleLabel,
  className = "secondary",
}: {
  action: (previous: FormState, form: FormData) => Promise<FormState>;
  fields: Record<string, string>;
  label: string;
  pending: string;
  /** The button's name for assistive technology when several alike share a page (one per table row); it begins with `label`. */
  accessibleLabel?: string;
  className?: string;
}) {
  const [state, run] = useActionState(action, {});
  return (
    <form action={run} className="inline-action">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <SubmitButton pending={pending} className={className} accessibleLabel={accessibleLabel}>
        {label}
      </SubmitButton>
      <FormMessage state={state} />
    </form>
  );
}
