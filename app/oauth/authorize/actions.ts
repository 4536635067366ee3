"use server";

import { redirect } from "next/navigation";
import { requestLocale } from "@/app/locale";
import { checkAuthorizeRequest } from "@/lib/domain/oauth/check-authorize-request";
import { denyConsent } from "@/lib/domain/oauth/deny-consent";
import { grantConsent } from "@/lib/domain/oauth/grant-consent";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import type { FormState } from "@/lib/adapters/portal/form-state";
import { requireAccount } from "@/lib/adapters/portal/session";
import { consentQuery, consentTokenMatches } from "./consent-request";

/**
 * Allow or Deny. The posted request is checked again as a new one (the app, its exact redirect
 * address, scope, PKCE) and must carry the form token of this account for exactly this request; only
 * then does the browser go back to the app, with a code or with `access_denied`.
 */
export async function answerConsent(_previous: FormState, form: FormData): Promise<FormState> {
  const { account, ctx } = await requireAccount();
  const texts = pageMessages(await requestLocale()).consent;
  const check = await checkAuthorizeRequest({ ctx, input: consentQuery(form) });
  if (check.kind !== "ok" || !consentTokenMatches(form.get("token"), account, check)) return { message: texts.expired };
  if (form.get("decision") !== "allow") redirect((await denyConsent({ ctx, input: check })).redirectTo);
  const result = await grantConsent({ ctx, input: check });
  if (result.kind === "redirect") redirect(result.redirectTo);
  return {
    message:
      result.reason === "too_many_keys"
        ? format(texts.refused.too_many_keys, { limit: result.limit, app: check.client.name })
        : texts.refused.unconfirmed_account,
  };
}
