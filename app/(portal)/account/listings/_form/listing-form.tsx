"use client";

import { useActionState, useEffect, useRef } from "react";
import { SubmitButton } from "@/components/forms/form-kit";
import type { PageMessages } from "@/lib/platform/i18n/page-messages";
import type { FormState } from "@/lib/portal/form-state";
import type { FormSection } from "@/lib/portal/listing-form";
import { saveListingAction } from "./actions";
import { ListingField, fieldId } from "./listing-field";

export type ListingFormTexts = PageMessages["listingForm"];

/**
 * The listing form: the sections the vocabulary gives for the listing's type and transaction, the
 * listing's version (`etag`, sent as If-Match), and a button per intent (save a draft, submit...).
 * A refusal comes back with the posted values, each error next to its field and linked from a
 * summary at the top, which takes the focus. Works without JavaScript (a plain post of the action).
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
  const [state, action] = useActionState(saveListingAction, {} as FormState);
  const values = state.values ?? initial;
  const errors = state.fieldErrors ?? {};
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state.message) summary.current?.focus();
  }, [state]);
  const labels = new Map(sections.flatMap((section) => section.fields.map((field) => [field.name as string, field.label])));

  return (
    <form action={action} className="stack listing-form" noValidate aria-labelledby="listing-form-title">
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
                  {labels.has(name) ? <a href={`#${fieldId(name)}`}>{`${labels.get(name)}: ${error}`}</a> : `${name || "—"}: ${error}`}
                </li>
              ))}
            </ul>
          ) : null}
          {state.code === "listing_changed_meanwhile" ? <a href={`/account/listings/${hidden.code}`}>{texts.reload}</a> : null}
        </div>
      ) : null}
      {sections.map((section) => (
        <fieldset key={section.id} className="stack">
          <legend>{texts.sections[section.id]}</legend>
          {section.fields.map((field) => (
            <ListingField
              key={`${field.name} ${values[field.name] ?? ""}`}
              field={field}
              value={values[field.name] ?? ""}
              error={errors[field.name]}
              texts={texts}
            />
          ))}
        </fieldset>
      ))}
      <p className="hint">{texts.notInForm}</p>
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
