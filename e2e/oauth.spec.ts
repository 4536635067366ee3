import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import * as oauth from "oauth4webapi";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { expectNoSeriousAxeViolations, fromOwnAddress, newHolder, screenshot, signedInPage } from "./support";

/**
 * A CRM connects an account the standard way, in a real browser: its maker registers the app in
 * the portal (the secret shown once), an account holder presses Allow on the consent page, and the
 * CRM (oauth4webapi: discovery, PKCE S256, state and iss checks, client_secret_basic) exchanges the
 * code on our token endpoint. The redirect address is a real HTTP server the browser is sent to.
 */

let receiver: Server;
let redirectUri = "";
const callbacks: URL[] = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    const url = new URL(request.url!, redirectUri);
    // The browser also asks for /favicon.ico: only the redirect address counts.
    if (url.pathname === "/oauth/callback") callbacks.push(url);
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end("<!doctype html><title>CRM</title><p>Back at the CRM.</p>");
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  redirectUri = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/oauth/callback`;
});

test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const insecure = { [oauth.allowInsecureRequests]: true };

async function registerApp(page: Page, name: string): Promise<{ clientId: string; clientSecret: string }> {
  const texts = pageMessages("en");
  await page.goto("/settings/api/apps");
  await expect(page.getByText(texts.apps.empty)).toBeVisible();
  await page.getByLabel(texts.apps.name).fill(name);
  await page.getByLabel(texts.apps.redirectUris).fill("http://not a url");
  await page.getByRole("button", { name: texts.apps.register }).click();
  await expect(page.locator("#redirect_uris-error")).toBeVisible();
  await page.getByLabel(texts.apps.redirectUris).fill(redirectUri);
  await page.getByRole("button", { name: texts.apps.register }).click();
  const secret = page.locator("[data-secret]");
  await expect(secret).toHaveText(/^svcs_/);
  const clientId = (await page.locator("[data-client-id]").textContent())!;
  expect(clientId).toMatch(/^svcc_/);
  return { clientId, clientSecret: (await secret.textContent())! };
}

async function authorizationUrl(as: oauth.AuthorizationServer, clientId: string, verifier: string, state: string): Promise<string> {
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: "listings:read listings:write",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  return url.toString();
}

test("register an app, connect through consent with PKCE, reuse of the code revokes the key, Deny, Disconnect", async ({
  browser,
  baseURL,
}, testInfo) => {
  const texts = pageMessages("en");
  const maker = await signedInPage(browser, await newHolder());
  const app = await registerApp(maker, `CRM ${Date.now()}`);
  await screenshot(maker, testInfo, "apps");

  const issuer = new URL(baseURL!);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }));
  const client: oauth.Client = { client_id: app.clientId };
  const clientAuth = oauth.ClientSecretBasic(app.clientSecret);

  // A signed-out holder opens the consent request, signs in, and comes back to it.
  const holder = await newHolder();
  const holderContext = await browser.newContext();
  await fromOwnAddress(holderContext);
  const holderPage = await holderContext.newPage();
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  await holderPage.goto(await authorizationUrl(as, app.clientId, verifier, state));
  await expect(holderPage).toHaveURL(/\/login\?next=%2Foauth%2Fauthorize%3F/);
  await holderPage.getByLabel(texts.access.email).fill(holder.email);
  await holderPage.getByLabel(texts.access.password, { exact: true }).fill(holder.password);
  await holderPage.getByRole("button", { name: texts.access.login.submit }).click();
  await expect(holderPage.getByRole("heading", { level: 1 })).toHaveText(/^Connect CRM/);
  await expect(holderPage.getByText(texts.consent.permissions["listings:write"])).toBeVisible();
  await expectNoSeriousAxeViolations(holderPage);
  await screenshot(holderPage, testInfo, "consent");

  await holderPage.getByRole("button", { name: texts.consent.allow }).click();
  await expect(holderPage.getByText("Back at the CRM.")).toBeVisible();
  const callback = oauth.validateAuthResponse(as, client, callbacks.at(-1)!, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, callback, redirectUri, verifier, insecure);
  const token = await oauth.processAuthorizationCodeResponse(as, client, response);
  expect(token).toMatchObject({ token_type: "bearer", scope: "listings:read listings:write", expires_in: 31_536_000 });
  const ping = () => holderPage.request.get("/api/v1/ping", { headers: { authorization: `Bearer ${token.access_token}` } });
  expect((await ping()).status()).toBe(200);

  // The holder sees the connection and its key.
  await holderPage.goto("/settings/api/connections");
  await expect(holderPage.getByRole("rowheader", { name: /^CRM/ })).toBeVisible();

  // The code again: refused, and the key it granted is revoked.
  const replay = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, callback, redirectUri, verifier, insecure);
  await expect(oauth.processAuthorizationCodeResponse(as, client, replay)).rejects.toMatchObject({ error: "invalid_grant" });
  expect((await ping()).status()).toBe(401);

  // Deny sends the holder back with access_denied and the app's state.
  const denyState = oauth.generateRandomState();
  await holderPage.goto(await authorizationUrl(as, app.clientId, oauth.generateRandomCodeVerifier(), denyState));
  await holderPage.getByRole("button", { name: texts.consent.deny }).click();
  await expect(holderPage.getByText("Back at the CRM.")).toBeVisible();
  expect(Object.fromEntries(callbacks.at(-1)!.searchParams)).toMatchObject({ error: "access_denied", state: denyState });

  // Connect again, then Disconnect in the portal: the new key stops at once.
  const again = oauth.generateRandomCodeVerifier();
  const againState = oauth.generateRandomState();
  await holderPage.goto(await authorizationUrl(as, app.clientId, again, againState));
  await holderPage.getByRole("button", { name: texts.consent.allow }).click();
  await expect(holderPage.getByText("Back at the CRM.")).toBeVisible();
  const secondCallback = oauth.validateAuthResponse(as, client, callbacks.at(-1)!, againState);
  const second = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, clientAuth, secondCallback, redirectUri, again, insecure),
  );
  expect(second.connection_id).toBe(token.connection_id);
  await holderPage.goto("/settings/api/connections");
  await holderPage.getByRole("button", { name: texts.apps.connections.disconnect }).click();
  await holderPage.getByRole("button", { name: texts.apps.connections.disconnectConfirm }).last().click();
  await expect(holderPage.getByText(texts.apps.connections.empty)).toBeVisible();
  const afterDisconnect = await holderPage.request.get("/api/v1/ping", { headers: { authorization: `Bearer ${second.access_token}` } });
  expect(afterDisconnect.status()).toBe(401);
});

test("a redirect address that is not registered is shown as an error and never followed", async ({ browser }) => {
  const texts = pageMessages("en");
  const maker = await signedInPage(browser, await newHolder());
  const app = await registerApp(maker, `CRM ${Date.now()}`);
  const before = callbacks.length;
  const url = new URL("/oauth/authorize", maker.url());
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: app.clientId,
    redirect_uri: `${redirectUri}/elsewhere`,
    scope: "listings:read",
    state: "s",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
  }).toString();
  await maker.goto(url.toString());
  await expect(maker.getByRole("heading", { level: 1, name: texts.consent.errorTitle })).toBeVisible();
  expect(new URL(maker.url()).pathname).toBe("/oauth/authorize");
  expect(callbacks.length).toBe(before);
});

test("the consent page cannot be framed", async ({ page }) => {
  const response = await page.request.get("/oauth/authorize?client_id=x");
  const headers = response.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
});

test("replacing an app's secret shows the new one once; the old one stops", async ({ browser, baseURL }) => {
  const texts = pageMessages("en");
  const maker = await signedInPage(browser, await newHolder());
  const app = await registerApp(maker, `CRM ${Date.now()}`);
  await maker.reload();
  await maker.getByRole("button", { name: texts.apps.rotate }).click();
  await maker.getByRole("button", { name: texts.apps.rotateConfirm }).click();
  const fresh = maker.locator("[data-secret]");
  await expect(fresh).toHaveText(/^svcs_/);
  expect(await fresh.textContent()).not.toBe(app.clientSecret);
  const revoke = (secret: string) =>
    maker.request.post(`${baseURL}/api/v1/oauth/revoke`, {
      form: { token: "unknown", client_id: app.clientId, client_secret: secret },
    });
  expect((await revoke(app.clientSecret)).status()).toBe(401);
  expect((await revoke((await fresh.textContent())!)).status()).toBe(200);
});

test("an app's webhook: a private address is refused, a public one is saved with its secret shown once", async ({ browser }) => {
  const texts = pageMessages("en").apps;
  const maker = await signedInPage(browser, await newHolder());
  await registerApp(maker, `CRM ${Date.now()}`);
  await maker.reload();
  await maker.getByText(texts.webhook.title, { exact: true }).click();
  const url = maker.getByLabel(texts.webhook.url);
  await url.fill("https://10.0.0.7/hooks");
  await maker.getByRole("checkbox", { name: "listing.published" }).check();
  await maker.getByRole("button", { name: texts.webhook.save }).click();
  await expect(maker.locator(".field-error").first()).toBeVisible();
  await expect(maker.locator("[data-secret]")).toHaveCount(0);

  await url.fill("https://8.8.8.8/crm-hooks");
  await maker.getByRole("button", { name: texts.webhook.save }).click();
  await expect(maker.locator("[data-secret]")).toHaveText(/^whsec_/);
  await maker.reload();
  await expect(maker.getByText("Sends listing.published to https://8.8.8.8/crm-hooks")).toBeVisible();
  await expect(maker.locator("[data-secret]")).toHaveCount(0);
});
