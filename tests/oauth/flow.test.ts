import * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { GET as metadata } from "@/app/.well-known/oauth-authorization-server/route";
import { POST as revoke } from "@/app/api/v1/oauth/revoke/route";
import { POST as token } from "@/app/api/v1/oauth/token/route";
import { GET as ping } from "@/app/api/v1/ping/route";
import { checkAuthorizeRequest } from "@/lib/domain/oauth/check-authorize-request";
import { grantConsent } from "@/lib/domain/oauth/grant-consent";
import { call, createdKeys } from "../support/fixtures";
import { freshAccount, freshClient, redirectUri } from "./support";

/** The client library's requests, answered by the route handlers in this process. */
const inProcess: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const { pathname } = new URL(request.url);
  const context = { params: Promise.resolve({}) };
  if (pathname === "/.well-known/oauth-authorization-server") return metadata();
  if (pathname === "/api/v1/oauth/token") return token(request, context);
  if (pathname === "/api/v1/oauth/revoke") return revoke(request, context);
  return new Response(null, { status: 404 });
};

const options = { [oauth.customFetch]: inProcess, [oauth.allowInsecureRequests]: true };

describe("an integrator using oauth4webapi", () => {
  it("discovers the server, gets consent, exchanges the code with PKCE, calls the API and revokes the key", async () => {
    const app = await freshClient();
    const account = await freshAccount();
    const issuer = new URL("http://localhost:3000");
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }));
    expect(as.token_endpoint).toBe("http://localhost:3000/api/v1/oauth/token");
    const client: oauth.Client = { client_id: app.client_id };
    const clientAuth = oauth.ClientSecretBasic(app.client_secret);

    // The app sends the browser to the consent page; the account holder presses Allow.
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.search = new URLSearchParams({
      response_type: "code",
      client_id: app.client_id,
      redirect_uri: redirectUri,
      scope: "listings:read listings:write",
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
    }).toString();
    const request = await checkAuthorizeRequest({ ctx: account.ctx, input: Object.fromEntries(authorizationUrl.searchParams) });
    if (request.kind !== "ok") throw new Error(`refused: ${JSON.stringify(request)}`);
    const consent = await grantConsent({ ctx: account.ctx, input: request });
    if (consent.kind !== "redirect") throw new Error(`refused: ${JSON.stringify(consent)}`);

    // Back at the app: the library checks iss and state, then exchanges the code.
    const callback = oauth.validateAuthResponse(as, client, new URL(consent.redirectTo), state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, callback, redirectUri, codeVerifier, options);
    const result = await oauth.processAuthorizationCodeResponse(as, client, response);
    createdKeys.push(result.access_token);
    expect(result).toMatchObject({ token_type: "bearer", expires_in: 31_536_000, scope: "listings:read listings:write" });
    expect(result.connection_id).toEqual(expect.any(Number));
    expect((await call(ping, { path: "/ping", key: result.access_token })).status).toBe(200);

    // The same code again: the library sees invalid_grant, and the key is gone.
    const replay = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, callback, redirectUri, codeVerifier, options);
    const error = await oauth.processAuthorizationCodeResponse(as, client, replay).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(oauth.ResponseBodyError);
    expect(error).toMatchObject({ error: "invalid_grant", status: 400 });
    expect((await call(ping, { path: "/ping", key: result.access_token })).status).toBe(401);
  });

  it("revokes a key through the revocation endpoint with client_secret_post", async () => {
    const app = await freshClient();
    const account = await freshAccount();
    const issuer = new URL("http://localhost:3000");
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }));
    const client: oauth.Client = { client_id: app.client_id };
    const clientAuth = oauth.ClientSecretPost(app.client_secret);
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const request = await checkAuthorizeRequest({
      ctx: account.ctx,
      input: {
        response_type: "code",
        client_id: app.client_id,
        redirect_uri: redirectUri,
        scope: "listings:read",
        state: "s",
        code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
      },
    });
    if (request.kind !== "ok") throw new Error("refused");
    const consent = await grantConsent({ ctx: account.ctx, input: request });
    if (consent.kind !== "redirect") throw new Error("refused");
    const callback = oauth.validateAuthResponse(as, client, new URL(consent.redirectTo), "s");
    const result = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, callback, redirectUri, codeVerifier, options),
    );
    createdKeys.push(result.access_token);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, result.access_token, options));
    expect((await call(ping, { path: "/ping", key: result.access_token })).status).toBe(401);
  });
});
