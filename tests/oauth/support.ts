import { database } from "@/db";
import { createAccount } from "@/lib/domain/accounts/create-account";
import type { Permission } from "@/lib/domain/keys/format";
import { checkAuthorizeRequest, type AuthorizeQuery } from "@/lib/domain/oauth/check-authorize-request";
import { grantConsent } from "@/lib/domain/oauth/grant-consent";
import { registerClientFor } from "@/lib/domain/oauth/register-client";
import { accountContext } from "@/lib/base/context";
import { newId } from "@/lib/base/ids";
import { POST as revokeHandler } from "@/app/api/v1/oauth/revoke/route";
import { POST as tokenHandler } from "@/app/api/v1/oauth/token/route";
import { call, createdKeys, fixturePasswordHash, operatorCtx } from "../support/fixtures";

/** RFC 7636 Appendix B: the verifier is the base64url of the octets 116, 24, 223, … given there. */
export const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
export const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
export const redirectUri = "https://crm.example.com/oauth/callback?tenant=7";

/** A fresh confirmed account (no key), acting for itself. */
export async function freshAccount(options: { confirmed?: boolean } = {}) {
  const account = await createAccount({
    ctx: await operatorCtx(),
    input: { email: `${newId("account")}@example.test`, passwordHash: fixturePasswordHash, confirmed: options.confirmed ?? true },
  });
  return { id: account.id, ctx: await ctxOf(account.id) };
}

export async function ctxOf(accountId: string, now?: Date) {
  return accountContext(await database(), { accountId, agency: null }, now ? { now, locale: "en" } : { locale: "en" });
}

/** An integrator app of a fresh account, with the given redirect addresses. */
export async function freshClient(redirectUris: string[] = [redirectUri, "http://127.0.0.1:8765/cb"]) {
  const owner = await freshAccount();
  return registerClientFor({
    ctx: await operatorCtx(),
    input: { account_id: owner.id, name: `CRM ${newId("client").slice(5, 10)}`, redirect_uris: redirectUris },
  });
}

export const authorizeQuery = (clientId: string, overrides: Record<string, string | undefined> = {}): AuthorizeQuery => {
  const query: Record<string, string | undefined> = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: "listings:read listings:write",
    state: "xyz-state",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...overrides,
  };
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
};

/** What pressing Allow gives: a code for the account and the app (at `now` when the test moves time). */
export async function consentCode(accountId: string, clientId: string, options: { scope?: Permission[]; now?: Date } = {}) {
  const ctx = await ctxOf(accountId, options.now);
  const check = await checkAuthorizeRequest({
    ctx,
    input: authorizeQuery(clientId, { scope: (options.scope ?? ["listings:read"]).join(" ") }),
  });
  if (check.kind !== "ok") throw new Error(`consent request refused: ${JSON.stringify(check)}`);
  const consent = await grantConsent({ ctx, input: check });
  if (consent.kind !== "redirect") throw new Error(`consent refused: ${JSON.stringify(consent)}`);
  return consent.code;
}

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

type Form = Record<string, string>;

/** POST to a form endpoint's route handler, as a client sends it. */
export async function postForm(handler: typeof tokenHandler, path: string, form: Form | string, headers: Record<string, string> = {}) {
  return call(handler, {
    path,
    method: "POST",
    rawBody: typeof form === "string" ? form : new URLSearchParams(form).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });
}

export const postToken = (form: Form | string, headers?: Record<string, string>) => postForm(tokenHandler, "/oauth/token", form, headers);
export const postRevoke = (form: Form | string, headers?: Record<string, string>) =>
  postForm(revokeHandler, "/oauth/revoke", form, headers);

/** The form of a successful exchange with credentials in the body. */
export const tokenForm = (client: { client_id: string; client_secret: string }, code: string, extra: Form = {}): Form => ({
  grant_type: "authorization_code",
  code,
  redirect_uri: redirectUri,
  code_verifier: verifier,
  client_id: client.client_id,
  client_secret: client.client_secret,
  ...extra,
});

/** Exchanges a code and returns the token answer; the key joins the file's audit of the API log. */
export async function exchange(client: { client_id: string; client_secret: string }, code: string) {
  const res = await postToken(tokenForm(client, code));
  if (res.status !== 200) throw new Error(`exchange failed: ${res.text}`);
  createdKeys.push(res.json!.access_token as string);
  return res.json as { access_token: string; token_type: string; expires_in: number; scope: string; connection_id: number };
}
