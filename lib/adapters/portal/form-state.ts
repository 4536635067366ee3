import { AppError } from "@/lib/base/errors";
import type { Locale } from "@/lib/base/i18n";
import { renderProblem } from "@/lib/base/problem";

/**
 * What a portal form's server action answers (React's `useActionState`): a message for the form,
 * one error per field (from the API's catalogues, so the portal and the API word a refusal alike),
 * and the values to put back into the fields. Secrets (passwords) are never sent back.
 */
export interface FormState {
  ok?: boolean;
  message?: string;
  /** The refusal's stable code, when the form offers a way on for it (a new confirmation link after `email_unconfirmed`). */
  code?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
}

/** The field a pointer is about in most forms: its first segment (`/new_password` → `new_password`). */
const firstSegment = (pointer: string) => pointer.split("/")[1] ?? "";

/**
 * A refusal of the one error hierarchy as form state: field errors by the control each pointer is
 * about (`controlOf`, by default the pointer's first segment), several for one control joined; any
 * other refusal as the form's message. Anything else is a fault and is thrown on (the page's error
 * boundary shows it; redirects pass through).
 */
export function refusalState(
  error: unknown,
  locale: Locale,
  values: Record<string, string> = {},
  controlOf: (pointer: string) => string = firstSegment,
): FormState {
  if (!(error instanceof AppError)) throw error;
  const problem = renderProblem(error, locale, "");
  if (!problem.errors?.length) return { message: problem.detail, values };
  const fieldErrors: Record<string, string> = {};
  for (const item of problem.errors) {
    const field = controlOf(item.pointer);
    fieldErrors[field] = fieldErrors[field] ? `${fieldErrors[field]} ${item.detail}` : item.detail;
  }
  return { message: problem.title, fieldErrors, values };
}
