import type { AuthorizeQuery } from "@/lib/domain/oauth/check-authorize-request";
import type { AuthorizeRequest } from "@/lib/domain/oauth/check-authorize-request";
import type { SessionAccount } from "@/lib/domain/accounts/session-account";
import { formToken, formTokenMatches } from "@/lib/adapters/portal/csrf";

/** The consent form's hidden fields: the checked request, posted back and checked again by the action. */
export const consentFields = (request: AuthorizeRequest) => ({
  client_id: request.client.id,
  redirect_uri: request.redirectUri,
  scope: request.scope.join(" "),
  state: request.state,
  code_challenge: request.codeChallenge,
});

/** The query `checkAuthorizeRequest` reads, rebuilt from the posted form. */
export const consentQuery = (form: FormData): AuthorizeQuery => {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  return {
    response_type: "code",
    code_challenge_method: "S256",
    client_id: field("client_id"),
    redirect_uri: field("redirect_uri"),
    scope: field("scope"),
    state: field("state"),
    code_challenge: field("code_challenge"),
  };
};

const subject = (request: AuthorizeRequest) => Object.values(consentFields(request));

/** The form token of this account's answer to exactly this request (lib/adapters/portal/csrf.ts). */
export const consentToken = (account: SessionAccount, request: AuthorizeRequest) =>
  formToken(account, "oauth-consent", ...subject(request));

export const consentTokenMatches = (token: unknown, account: SessionAccount, request: AuthorizeRequest) =>
  formTokenMatches(token, account, "oauth-consent", ...subject(request));
