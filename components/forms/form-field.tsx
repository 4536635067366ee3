import type { ReactNode } from "react";
import "./forms.css";

/** What a field's control carries so that a screen reader reads its hint and error with it. */
export interface ControlAria {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/** The ids a control's `aria-describedby` names: its hint's and its error's, those it has. */
export const describedBy = (id: string, hint?: string, error?: string): string | undefined =>
  [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;

/** A control's hint and error, below it, with the ids `describedBy` names (`<id>-hint`, `<id>-error`). */
export function FieldNotes({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return (
    <>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

/**
 * One field of a form: its label, the control (drawn by `children` with the id and ARIA it is
 * given: `aria-invalid` when refused, `aria-describedby` naming the hint and the error), then the
 * hint and the error. Every form's single fields are drawn through it, so they read alike.
 */
export function FormField({
  id,
  label,
  hint,
  error,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: string;
  error?: string;
  className?: string;
  children: (control: ControlAria) => ReactNode;
}) {
  return (
    <div className={className ? `field ${className}` : "field"}>
      <label htmlFor={id}>{label}</label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy(id, hint, error) })}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/**
 * A field of several controls (checkboxes, a range's two ends): a fieldset named by its legend and
 * described by its hint and error, which come first so they are read before the choices.
 */
export function FieldGroup({
  id,
  legend,
  hint,
  error,
  className,
  children,
}: {
  id: string;
  legend: ReactNode;
  hint?: string;
  error?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <fieldset id={id} className={className ? `field ${className}` : "field"} aria-describedby={describedBy(id, hint, error)}>
      <legend>{legend}</legend>
      <FieldNotes id={id} hint={hint} error={error} />
      {children}
    </fieldset>
  );
}
