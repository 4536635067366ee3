"use client";

import { ConfirmAction } from "@/components/forms/confirm-action";
import { FormMessage } from "@/components/forms/form-kit";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { decideAction } from "../../actions";

/**
 * Reject with a reason and one or more codes of the vocabulary, asked twice like every decision:
 * Reject reveals the question with Confirm and Cancel inside the same form, so what was typed and
 * ticked is what gets posted. The service's refusals show at their fields.
 */
export function RejectForm({
  fields,
  codes,
  texts,
}: {
  fields: Record<string, string>;
  codes: { code: string; label: string }[];
  texts: PageMessages["moderation"]["review"];
}) {
  return (
    <ConfirmAction
      action={decideAction}
      fields={{ ...fields, decision: "reject" }}
      label={texts.reject}
      question={texts.rejectQuestion}
      confirm={texts.confirm}
      cancel={texts.cancel}
      pending={texts.rejecting}
      className="stack"
      labelledBy="reject-heading"
    >
      {(state) => {
        const chosen = new Set(state.values?.rejection_codes?.split(" ") ?? []);
        const reasonError = state.fieldErrors?.reason;
        const codesError = state.fieldErrors?.rejection_codes;
        return (
          <>
            <h3 id="reject-heading">{texts.rejectHeading}</h3>
            <FormMessage state={state} />
            <div className="field">
              <label htmlFor="reject-reason">{texts.reason}</label>
              <textarea
                id="reject-reason"
                name="reason"
                rows={3}
                maxLength={500}
                key={state.values?.reason}
                defaultValue={state.values?.reason}
                aria-invalid={reasonError ? true : undefined}
                aria-describedby={reasonError ? "reject-reason-hint reject-reason-error" : "reject-reason-hint"}
              />
              <p className="hint" id="reject-reason-hint">
                {texts.reasonHint}
              </p>
              {reasonError ? (
                <p className="field-error" id="reject-reason-error">
                  {reasonError}
                </p>
              ) : null}
            </div>
            <fieldset key={state.values?.rejection_codes} aria-describedby={codesError ? "reject-codes-error" : undefined}>
              <legend>{texts.codes}</legend>
              {codes.map((entry) => (
                <label key={entry.code}>
                  <input type="checkbox" name="rejection_codes" value={entry.code} defaultChecked={chosen.has(entry.code)} /> {entry.label}
                </label>
              ))}
              {codesError ? (
                <p className="field-error" id="reject-codes-error">
                  {codesError}
                </p>
              ) : null}
            </fieldset>
          </>
        );
      }}
    </ConfirmAction>
  );
}
