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
  offered = true,
}: {
  action: (previous: FormState, form: FormData) => Promise<FormState>;
  fields: Record<string, string>;
  label: string;
  pending: string;
  /** The button's name for assistive technology when several alike share a page (one per table row); it begins with `label`. */
  accessibleLabel?: string;
  className?: string;
  /**
   * False while the action does not apply (a delivery being sent again after its resend): the button
   * goes, but the form stays mounted, so the answer already said beside it stays when the page refreshes.
   */
  offered?: boolean;
}) {
  const [state, run] = useActionState(action, {});
  return (
    <form action={run} className="inline-action">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {offered ? (
        <SubmitButton pending={pending} className={className} accessibleLabel={accessibleLabel}>
          {label}
        </SubmitButton>
      ) : null}
      <FormMessage state={state} />
    </form>
  );
}
