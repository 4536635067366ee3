"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import { SubmitButton } from "@/components/forms/form-kit";
import { useFormat, type Formatter } from "@/components/locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import type { FormState } from "@/lib/adapters/portal/form-state";
import type { FormFieldView, FormSection } from "@/lib/adapters/portal/listing-form";
import { rowControlOf } from "@/lib/adapters/portal/unit-type-rows";
import { saveListingAction } from "./actions";
import { ListingField, fieldId } from "./listing-field";
import { ParcelField } from "./parcel-field";
import { UnitTypesEditor, type FormControlProps } from "./unit-types-editor";
import "./listing-form.css";

export type ListingFormTexts = PageMessages["listingForm"];

/**
 * The listing form: the sections the vocabulary gives for the listing's type and transaction (each
 * a fieldset, linked from a list at the top), the listing's version (`etag`, sent as If-Match), and
 * a button per intent (save a draft, submit...). Above the sections, the fields needed to submit
 * that are still empty, each linked, kept up to date as the holder types. A refusal comes back with
 * the posted values, each error next to its field and linked from a summary at the top, which takes
 * the focus. Works without JavaScript (a plain post of the action; the list of empty fields is then
 * the one the page was drawn with).
 */
export function ListingForm({
  sections,
  initial,
  hidden,
  intents,
  hint,
  texts,
}: {
  sections: FormSection[];
  initial: Record<string, string>;
  hidden: Record<string, string>;
  intents: { intent: string; label: string }[];
  hint?: string;
  texts: ListingFormTexts;
}) {
  const format = useFormat();

  const [state, action] = useActionState(saveListingAction, {} as FormState);
  const values = state.values ?? initial;
  const errors = state.fieldErrors ?? {};
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state.message) summary.current?.focus();
  }, [state]);
  const labelOf = controlLabels(sections, texts, format);
  // What was typed since the last answer; before any typing, the values the page or the answer holds.
  const [typed, setTyped] = useState<{ answer: FormState; filled: (name: string) => boolean }>();
  const filled = typed?.answer === state ? typed.filled : filledIn(values);
  const missing = sections.flatMap((section) => section.fields).filter((field) => field.required && !filled(field.name));

  return (
    <form
      action={action}
      className="stack listing-form"
      noValidate
      aria-labelledby="listing-form-title"
      onInput={(event) => setTyped({ answer: state, filled: filledIn(new FormData(event.currentTarget)) })}
    >
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {state.message ? (
        <div className="notice error" role="alert" tabIndex={-1} ref={summary}>
          <p>{Object.keys(errors).length ? texts.errorSummary : state.message}</p>
          {Object.keys(errors).length ? (
            <ul>
              {Object.entries(errors).map(([name, error]) => (
                <li key={name}>
                  {labelOf(name) ? <a href={`#${fieldId(name)}`}>{`${labelOf(name)}: ${error}`}</a> : `${name || "—"}: ${error}`}
                </li>
              ))}
            </ul>
          ) : null}
          {state.code === "listing_changed_meanwhile" ? <a href={`/account/listings/${hidden.code}`}>{texts.reload}</a> : null}
        </div>
      ) : null}
      <nav aria-label={texts.sectionsNav} className="form-sections">
        <ul>
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#section-${section.id}`}>{texts.sections[section.id]}</a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="notice missing-fields">
        {missing.length ? (
          <>
            <p>{format(texts.missing, { count: missing.length })}</p>
            <ul>
              {missing.map((field) => (
                <li key={field.name}>
                  <a href={`#${fieldId(field.name)}`}>{field.label}</a>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>{texts.missingNone}</p>
        )}
      </div>
      {sections.map((section) => (
        <fieldset key={section.id} id={`section-${section.id}`} className="form-section">
          <legend>{texts.sections[section.id]}</legend>
          <div className="form-grid">
            {section.fields.map((field) => (
              <FormControl key={controlKey(field, values, errors)} field={field} values={values} errors={errors} texts={texts} />
            ))}
          </div>
        </fieldset>
      ))}
      {hint ? <p className="hint">{hint}</p> : null}
      <div className="actions">
        {intents.map(({ intent, label }) => (
          <SubmitButton key={intent} pending={texts.saving} name="intent" value={intent}>
            {label}
          </SubmitButton>
        ))}
      </div>
    </form>
  );
}

/**
 * Whether a field holds something, from the form's values (`unit_types.2.rooms` for a development's
 * rows, several entries for checkboxes): what the list of fields still needed to submit reads.
 */
function filledIn(values: Record<string, string> | FormData): (name: string) => boolean {
  const entries = values instanceof FormData ? [...values.entries()] : Object.entries(values);
  const given = new Set(entries.filter(([, value]) => typeof value === "string" && value.trim() !== "").map(([name]) => name));
  return (name) => given.has(name) || [...given].some((control) => control.startsWith(`${name}.`));
}

/**
 * A field's control: what the vocabulary gives it, the unit types editor for a development's rows,
 * the corners' textarea for a parcel.
 */
function FormControl({ field, values, errors, texts }: FormControlProps) {
  if (field.control === "unit_types") return <UnitTypesEditor field={field} values={values} errors={errors} texts={texts} />;
  const [value, error] = [values[field.name] ?? "", errors[field.name]];
  if (field.control === "parcel") return <ParcelField field={field} value={value} error={error} texts={texts} />;
  return <ListingField field={field} value={value} error={error} texts={texts} />;
}

/**
 * A control is drawn anew when the values it shows change (an answer of the action), so that its
 * default value is the one kept; the unit types editor also when its errors change, as its rows
 * hold them.
 */
function controlKey(field: FormFieldView, values: Record<string, string>, errors: Record<string, string>): string {
  if (field.control !== "unit_types") return `${field.name} ${values[field.name] ?? ""}`;
  const own = (record: Record<string, string>) => Object.entries(record).filter(([name]) => name.startsWith(field.name));
  return `${field.name} ${JSON.stringify([own(values), own(errors)])}`;
}

/** The label the error summary gives a control: its field's, or "Unit type 3, Area up to" for a row's member. */
function controlLabels(sections: FormSection[], texts: ListingFormTexts, format: Formatter): (name: string) => string | undefined {
  const fields = sections.flatMap((section) => section.fields);
  const labels = new Map(fields.map((field) => [field.name, field.label]));
  const members = new Map(fields.flatMap((field) => field.members ?? []).map((member) => [member.name, member.label]));
  return (name) => {
    const control = rowControlOf(name);
    if (!control) return labels.get(name);
    const member = members.get(control.member);
    return member ? `${format(texts.unitTypes.row, { n: control.row + 1 })}, ${member}` : undefined;
  };
}
