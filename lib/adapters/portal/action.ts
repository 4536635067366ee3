import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import type { z } from "zod";
import type { Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { formTokenMatches, type FormTokenBinding } from "./csrf";
import { fieldsOf } from "./form-fields";
import { refusalState, type FormState } from "./form-state";
import { requestLocale } from "./request-locale";
import { requireAccount, requireModerator, visitorSession } from "./session";

/** Who may send the form: a signed-in account (else sign-in and back), a moderator (else not found), anyone. */
const sessions = { account: requireAccount, moderator: requireModerator, visitor: visitorSession };
type SessionKind = keyof typeof sessions;
type SessionOf<K extends SessionKind> = Awaited<ReturnType<(typeof sessions)[K]>>;

/** Where a successful action sends the browser, after its revalidation, instead of answering the form. */
class Redirect {
  constructor(readonly path: string) {}
}

export const goTo = (path: string): Redirect => new Redirect(path);

/** A path whose pages a success makes stale; with `layout`, every page under it too. */
type Revalidation = string | readonly [path: string, type: "layout" | "page"];

export type ActionCall<K extends SessionKind, Input> = SessionOf<K> & {
  input: Input;
  /** The posted form itself, for a form whose fields depend on what it is about (the listing form). */
  form: FormData;
  locale: Locale;
  /** The fields' values a refusal from here on puts back, when they are known only once `run` has read something. */
  keepValues: (values: Record<string, string>) => void;
};

interface ActionSpec<K extends SessionKind, Input, State extends FormState> {
  session: K;
  /** The form's fields (see form-fields.ts); a failure comes back as field errors in the page's language. */
  input: z.ZodType<Input>;
  /** The form token the post must carry (`token`), bound to the account and to what this input is about. */
  token?: FormTokenBinding<NoInfer<Input>>;
  /** What the fields show again after a refusal (React empties a form after its action); never a password. */
  values?: (input: NoInfer<Input>) => Record<string, string>;
  /** The control a refusal's pointer is about, when not its first segment (`refusalState`). */
  controlOf?: (pointer: string) => string;
  /** The service call and the answer to a success; a thrown refusal (`AppError`) becomes the form's state. */
  run: (call: ActionCall<K, NoInfer<Input>>) => Promise<NoInfer<State> | Redirect>;
  /** A refusal this form answers in words of its own; `undefined` leaves it to `refusalState`. */
  refused?: (error: unknown, call: { locale: Locale; values: Record<string, string> }) => NoInfer<State> | Redirect | undefined;
  /** Revalidated after a success (an answer not `ok: false`, or a redirect). */
  revalidate?: readonly Revalidation[] | ((input: NoInfer<Input>) => readonly Revalidation[]);
  /** Revalidate after a refusal too: what the page lists may have changed elsewhere meanwhile. */
  revalidateAfterRefusal?: boolean;
}

/** A server action usable both with `useActionState` and as a plain `<form action>`; both work without JavaScript. */
export interface PortalAction<State> {
  /** A plain form action: nothing shows its answer, so such a form's action redirects. */
  (form: FormData): Promise<void>;
  (previous: State, form: FormData): Promise<State>;
}

/**
 * The one shape of the portal's server actions: the session, the request's language, the fields
 * parsed, the form token checked (a stale one answers `staleForm`), the service called, the pages
 * revalidated after a success, and a refusal turned into the form's state in the page's language.
 * A fault is thrown on, to the page's error boundary.
 */
export function portalAction<K extends SessionKind, Input, State extends FormState = FormState>(
  spec: ActionSpec<K, Input, State>,
): PortalAction<State> {
  const answer = async (...posted: [FormData] | [State, FormData]): Promise<State> => {
    const form = posted.length === 1 ? posted[0] : posted[1];
    const session = (await sessions[spec.session]()) as SessionOf<K>;
    const locale = await requestLocale();
    let values: Record<string, string> = {};
    const refusal = (error: unknown) =>
      follow(spec.refused?.(error, { locale, values }) ?? (refusalState(error, locale, values, spec.controlOf) as State));
    const fields = fieldsOf(form);
    let input: Input;
    try {
      input = parseOrThrow(spec.input, fields);
    } catch (error) {
      return refusal(error);
    }
    values = spec.values?.(input) ?? {};
    if (spec.token && !(session.account && formTokenMatches(fields.token, session.account, spec.token, input))) {
      return { ok: false, message: pageMessages(locale).staleForm, values } as State;
    }
    let outcome: State | Redirect;
    try {
      outcome = await spec.run({ ...session, input, form, locale, keepValues: (kept) => (values = kept) });
    } catch (error) {
      if (spec.revalidateAfterRefusal) revalidate(spec, input);
      return refusal(error);
    }
    if (outcome instanceof Redirect || outcome.ok !== false) revalidate(spec, input);
    return follow(outcome);
  };
  return answer as PortalAction<State>;
}

function revalidate<Input>(spec: { revalidate?: ActionSpec<SessionKind, Input, FormState>["revalidate"] }, input: Input): void {
  const paths = typeof spec.revalidate === "function" ? spec.revalidate(input) : (spec.revalidate ?? []);
  for (const path of paths) {
    if (typeof path === "string") revalidatePath(path);
    else revalidatePath(path[0], path[1]);
  }
}

function follow<State>(outcome: State | Redirect): State {
  if (outcome instanceof Redirect) redirect(outcome.path);
  return outcome;
}
