import type { ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { format, messages } from "@/lib/base/i18n";
import { renderProblem } from "@/lib/base/problem";
import { errorRedirect, localeOf, registeredClient, type AuthorizeRequest } from "./internal/authorize-request";
import { parseScope } from "./internal/scope";
import { apiResource, knownResources, mcpResource } from "./resources";
import { codeChallengePattern } from "./secrets";

export type { AuthorizeRequest };

/** The query of `GET /oauth/authorize` as the page receives it: a name may come once, several times or not at all. */
export type AuthorizeQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Why the page shows an error itself instead of redirecting: the redirect address cannot be trusted. */
export type InvalidClientOrRedirectReason =
  | "missing_client_id"
  | "unknown_client"
  | "client_metadata_document"
  | "missing_redirect_uri"
  | "unregistered_redirect_uri"
  | "duplicate_parameter";

/** The error codes sent to the app's redirect address (RFC 6749 §4.1.2.1). */
export type AuthorizeRedirectError = "invalid_request" | "unsupported_response_type" | "invalid_scope" | "invalid_target";

export type AuthorizeCheck =
  /** Show `detail` on the page and never redirect (RFC 6749 §4.1.2.1, first paragraph). */
  | { kind: "invalid_client_or_redirect"; reason: InvalidClientOrRedirectReason; detail: string }
  /** Send the browser to `redirectTo`, which carries `error`, `error_description` and `state`. */
  | { kind: "redirect_error"; error: AuthorizeRedirectError; redirectTo: string }
  /** Show the consent form for this request. */
  | ({ kind: "ok" } & AuthorizeRequest);

type Single = { value: string | undefined } | { duplicate: true };

function single(query: AuthorizeQuery, name: string): Single {
  const value = query[name];
  if (typeof value === "string" || value === undefined) return { value };
  if (value.length > 1) return { duplicate: true };
  return { value: value[0] };
}

const valueOf = (parameter: Single): string | undefined => ("value" in parameter ? parameter.value : undefined);

/**
 * Checks a consent request (`response_type=code`, `client_id` (ours, or the URL of the app's client
 * ID metadata document, fetched here), `redirect_uri` exactly as registered, `scope`, `state`, `code_challenge` with `code_challenge_method=S256`, optionally one
 * `resource` of this server, RFC 8707). Until the app
 * and its redirect address are known the page shows the error itself; after that every error goes
 * back to the app, with the `state` it sent. `state` is required: it is the app's defence against
 * cross-site request forgery, and PKCE alone does not tell an app which of its requests came back.
 */
export async function checkAuthorizeRequest({ ctx, input }: { ctx: ServiceContext; input: AuthorizeQuery }): Promise<AuthorizeCheck> {
  const locale = localeOf(ctx);
  const text = messages(locale);
  const clientParameter = single(input, "client_id");
  const redirectParameter = single(input, "redirect_uri");
  const invalid = (reason: InvalidClientOrRedirectReason, detail: string): AuthorizeCheck => ({
    kind: "invalid_client_or_redirect",
    reason,
    detail,
  });
  for (const [name, parameter] of [
    ["client_id", clientParameter],
    ["redirect_uri", redirectParameter],
  ] as const) {
    if ("duplicate" in parameter)
      return invalid("duplicate_parameter", format(locale, text.problems.invalid_request.reasons.duplicate_parameter, { parameter: name }));
  }
  const clientId = valueOf(clientParameter);
  if (!clientId)
    return invalid(
      "missing_client_id",
      format(locale, text.problems.invalid_request.reasons.missing_parameter, { parameter: "client_id" }),
    );
  const redirectUri = valueOf(redirectParameter);
  if (!redirectUri)
    return invalid(
      "missing_redirect_uri",
      format(locale, text.problems.invalid_request.reasons.missing_parameter, { parameter: "redirect_uri" }),
    );
  const registered = await registeredClient(ctx, clientId, redirectUri);
  if (!registered.found) {
    if (registered.reason === "client_metadata_document")
      return invalid(registered.reason, renderProblem(registered.error, locale, "").detail);
    const reason = registered.reason === "unknown_client" ? "unknown_client" : "redirect_uri_not_registered";
    return invalid(registered.reason, text.validation_reasons[reason]);
  }

  const stateParameter = single(input, "state");
  const state = valueOf(stateParameter) || undefined;
  const refuse = (error: AppError<AuthorizeRedirectError>): AuthorizeCheck => ({
    kind: "redirect_error",
    error: error.code,
    redirectTo: errorRedirect(redirectUri, error, locale, state),
  });
  for (const name of ["response_type", "scope", "state", "code_challenge", "code_challenge_method", "resource"]) {
    if ("duplicate" in single(input, name))
      return refuse(new AppError("invalid_request", { reason: "duplicate_parameter", parameter: name }));
  }
  const responseType = valueOf(single(input, "response_type"));
  if (!responseType) return refuse(new AppError("invalid_request", { reason: "missing_parameter", parameter: "response_type" }));
  if (responseType !== "code") return refuse(new AppError("unsupported_response_type"));
  if (!state) return refuse(new AppError("invalid_request", { reason: "missing_state" }));
  const codeChallenge = valueOf(single(input, "code_challenge"));
  if (!codeChallenge) return refuse(new AppError("invalid_request", { reason: "code_challenge_missing" }));
  if (valueOf(single(input, "code_challenge_method")) !== "S256")
    return refuse(new AppError("invalid_request", { reason: "code_challenge_method" }));
  if (!codeChallengePattern.test(codeChallenge)) return refuse(new AppError("invalid_request", { reason: "code_challenge_format" }));
  const scope = parseScope(valueOf(single(input, "scope")));
  if (!scope.ok) {
    return refuse(
      scope.reason === "unknown_scope"
        ? new AppError("invalid_scope", { reason: "unknown_scope", scope: scope.scope })
        : new AppError("invalid_scope", { reason: "scope_missing" }),
    );
  }
  const resource = valueOf(single(input, "resource")) || null;
  if (resource !== null && !knownResources().includes(resource))
    return refuse(new AppError("invalid_target", { reason: "unknown_resource", resource, mcp: mcpResource(), api: apiResource() }));
  const { client } = registered;
  return {
    kind: "ok",
    client: {
      id: client.id,
      name: client.name,
      selfRegistered: client.registration !== "account",
      clientUri: client.clientUri,
      documentHost: client.registration === "metadata_document" ? new URL(client.id).host : null,
    },
    redirectUri,
    scope: scope.scope,
    state,
    codeChallenge,
    resource,
  };
}
