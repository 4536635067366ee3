import type { AuthorizeQuery, AuthorizeRequest } from "@/lib/domain/oauth/check-authorize-request";
import type { FormTokenBinding } from "@/lib/adapters/portal/csrf";

/** The consent form's hidden fields: the checked request, posted back and checked again by the action. */
export const consentFields = (request: AuthorizeRequest) => ({
  client_id: request.client.id,
  redirect_uri: request.redirectUri,
  scope: request.scope.join(" "),
  state: request.state,
  code_challenge: request.codeChallenge,
  resource: request.resource ?? "",
});

export type ConsentFields = ReturnType<typeof consentFields>;

/** The query `checkAuthorizeRequest` reads, rebuilt from the posted fields. */
export const consentQuery = (fields: ConsentFields): AuthorizeQuery => ({
  response_type: "code",
  code_challenge_method: "S256",
  ...fields,
});

/** The consent form's token: this account's answer to exactly this request. */
export const consentToken: FormTokenBinding<ConsentFields> = {
  purpose: "oauth-consent",
  subject: (fields) => [fields.client_id, fields.redirect_uri, fields.scope, fields.state, fields.code_challenge, fields.resource],
};
