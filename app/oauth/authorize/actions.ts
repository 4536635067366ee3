"use server";

import { z } from "zod";
import { checkAuthorizeRequest } from "@/lib/domain/oauth/check-authorize-request";
import { denyConsent } from "@/lib/domain/oauth/deny-consent";
import { grantConsent } from "@/lib/domain/oauth/grant-consent";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { goTo, portalAction } from "@/lib/adapters/portal/action";
import { text } from "@/lib/adapters/portal/form-fields";
import { consentQuery, consentToken } from "./consent-request";

/**
 * Allow or Deny. The post must carry the form token of this account for exactly this request, and
 * the request is checked again as a new one (the app, its exact redirect address, scope, PKCE); only
 * then does the browser go back to the app, with a code or with `access_denied`.
 */
export const answerConsent = portalAction({
  session: "account",
  input: z.object({
    client_id: text(),
    redirect_uri: text(),
    scope: text(),
    state: text(),
    code_challenge: text(),
    resource: text(2048),
    decision: text(10),
  }),
  token: consentToken,
  run: async ({ ctx, input: { decision, ...fields }, locale }) => {
    const texts = pageMessages(locale).consent;
    const check = await checkAuthorizeRequest({ ctx, input: consentQuery(fields) });
    if (check.kind !== "ok") return { message: texts.expired };
    if (decision !== "allow") return goTo((await denyConsent({ ctx, input: check })).redirectTo);
    const result = await grantConsent({ ctx, input: check });
    if (result.kind === "redirect") return goTo(result.redirectTo);
    return {
      message:
        result.reason === "too_many_keys"
          ? format(locale, texts.refused.too_many_keys, { limit: result.limit, app: check.client.name })
          : texts.refused.unconfirmed_account,
    };
  },
});
