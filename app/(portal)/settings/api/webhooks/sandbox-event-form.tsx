"use client";

import { useActionState } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/forms/form-kit";
import { FormField } from "@/components/forms/form-field";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { triggerSandboxEventAction } from "./actions";

/** A listing offered in the code field's suggestions. */
export interface SuggestedListing {
  code: string;
  label: string;
}

/**
 * "Send a test event of type …" (sandbox only): a type and a listing's code, typed or picked from the
 * account's latest listings (a datalist, so any code can still be typed). The answer says the
 * event's id, or why nothing was sent, at the field it is about; the choices stay for the next one.
 */
export function SandboxEventForm({
  eventTypes,
  listings,
  token,
  texts,
}: {
  eventTypes: string[];
  listings: SuggestedListing[];
  token: string;
  texts: PageMessages["webhooks"]["sandboxEvent"];
}) {
  const [state, action] = useActionState(triggerSandboxEventAction, {});
  const typeError = state.fieldErrors?.type;
  const chosenType = state.values?.type ?? eventTypes[0];
  return (
    <form action={action} className="stack" noValidate>
      <FormMessage state={state} />
      <input type="hidden" name="token" value={token} />
      <FormField id="sandbox-event-type" label={texts.type} error={typeError}>
        {(control) => (
          // A new element after each answer, so the kept choice replaces what React reset.
          <select {...control} name="type" key={chosenType} defaultValue={chosenType}>
            {eventTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <Field
        name="code"
        id="sandbox-event-code"
        label={texts.code}
        hint={texts.codeHint}
        state={state}
        list="sandbox-event-listings"
        autoComplete="off"
        spellCheck={false}
        maxLength={8}
        required
      />
      <datalist id="sandbox-event-listings">
        {listings.map((listing) => (
          <option key={listing.code} value={listing.code} label={listing.label} />
        ))}
      </datalist>
      <SubmitButton pending={texts.submitting}>{texts.submit}</SubmitButton>
    </form>
  );
}
