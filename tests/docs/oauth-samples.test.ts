import { describe, expect, it } from "vitest";
import { codeSamples, guideSource } from "@/lib/adapters/docs/content";
import { locales, type Locale } from "@/lib/base/i18n";
import { checkAuthorizeRequest } from "@/lib/domain/oauth/check-authorize-request";
import { grantConsent } from "@/lib/domain/oauth/grant-consent";
import { registerClientFor } from "@/lib/domain/oauth/register-client";
import { createdKeys, operatorCtx } from "../support/fixtures";
import { inProcessFetch } from "../support/in-process-fetch";
import { freshAccount } from "../oauth/support";
import { runShell, runTypeScript, startBridge, testedSamples, workFolder } from "./samples";

// The OAuth guide's samples run as an integrator's server runs them, against the route handlers: the
// discovery with curl, the consent address built with PKCE, then (the account holder's Allow done by
// the consent page's own services, as tests/oauth does) the callback that exchanges the code, calls
// the API and revokes the key, and the exchange with curl, used twice.

const redirectUri = "https://crm.example.com/oauth/callback";

/** The JSON blocks the guide shows, in order. */
const shownJson = (locale: Locale) =>
  codeSamples(guideSource(locale, "oauth"))
    .filter((block) => block.lang === "json")
    .map((block) => JSON.parse(block.code) as Record<string, any>);

async function ping(key: string) {
  const response = await inProcessFetch(new Request("http://localhost:3000/api/v1/ping", { headers: { authorization: `Bearer ${key}` } }));
  return response.status;
}

describe.each(locales)("the OAuth guide's samples (%s)", (locale) => {
  const samples = testedSamples(locale, "oauth");
  const sample = (title: string) => {
    const found = samples.get(title);
    if (!found) throw new Error(`no sample ${title} in the ${locale} OAuth guide`);
    return found;
  };

  it("has the samples this test runs, and no other", () => {
    expect([...samples.keys()].sort()).toEqual(["authorize-url.ts", "connect-callback.ts", "discovery.sh", "exchange-code.sh"]);
  });

  it("discovers the endpoints, sends the holder to consent, exchanges the code, calls the API and revokes the key", async () => {
    const developer = await freshAccount();
    const app = await registerClientFor({
      ctx: await operatorCtx(),
      input: { account_id: developer.id, name: "My CRM", redirect_uris: [redirectUri] },
    });
    const holder = await freshAccount();
    const [discovery, token, replay] = shownJson(locale);
    const bridge = await startBridge();
    try {
      const folder = workFolder();
      const appEnv = { CLIENT_ID: app.client_id, CLIENT_SECRET: app.client_secret, REDIRECT_URI: redirectUri };
      const shell = (title: string, env: Record<string, string>) =>
        runShell(sample(title), { curlHome: bridge.curlHome, cwd: folder, env });

      expect(JSON.parse(await shell("discovery.sh", {}))).toEqual(discovery);

      /** The consent address the sample prints, as the holder's browser opens it; Allow pressed. */
      const consent = async () => {
        const { module, printed } = await runTypeScript<{ codeVerifier: string; state: string }>(sample("authorize-url.ts"), {
          folder,
          env: appEnv,
        });
        expect(printed).toHaveLength(1);
        expect(printed[0]).toMatch(/^http:\/\/localhost:3000\/oauth\/authorize\?response_type=code&client_id=svcc_/);
        const request = await checkAuthorizeRequest({ ctx: holder.ctx, input: Object.fromEntries(new URL(printed[0]).searchParams) });
        if (request.kind !== "ok") throw new Error(`the consent request was refused: ${JSON.stringify(request)}`);
        expect(request.scope).toEqual(["listings:read", "listings:write", "media:write"]);
        const allowed = await grantConsent({ ctx: holder.ctx, input: request });
        if (allowed.kind !== "redirect") throw new Error(`consent refused: ${allowed.reason}`);
        return { ...module, callbackUrl: allowed.redirectTo, code: allowed.code };
      };

      // The whole callback in TypeScript.
      const first = await consent();
      const callback = await runTypeScript(sample("connect-callback.ts"), {
        folder,
        env: { ...appEnv, CALLBACK_URL: first.callbackUrl, EXPECTED_STATE: first.state, CODE_VERIFIER: first.codeVerifier },
      });
      expect(callback.printed).toEqual([
        "Bearer 31536000 listings:read listings:write media:write",
        "key name: My CRM",
        "after revocation: 401",
      ]);

      // The exchange with curl: the answer the guide shows; the same code again is refused and its key revoked.
      const second = await consent();
      const exchangeEnv = { ...appEnv, CODE: second.code, CODE_VERIFIER: second.codeVerifier };
      const granted = JSON.parse(await shell("exchange-code.sh", exchangeEnv));
      createdKeys.push(granted.access_token);
      expect(Object.keys(granted).sort()).toEqual(Object.keys(token).sort());
      expect(granted).toMatchObject({ token_type: token.token_type, expires_in: token.expires_in, scope: token.scope });
      expect(granted.access_token).toMatch(/^key_\w+\|svc_test_\w+$/);
      expect(granted.connection_id).toEqual(expect.any(Number));
      expect(await ping(granted.access_token)).toBe(200);

      expect(JSON.parse(await shell("exchange-code.sh", exchangeEnv))).toMatchObject(replay);
      expect(await ping(granted.access_token)).toBe(401);
    } finally {
      await bridge.close();
    }
  });
});
