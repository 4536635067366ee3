import { randomBytes } from "node:crypto";
import { asAccount, type OperatorActor, type ServiceContext, type SystemActor } from "@/lib/base/context";
import { ValidationError } from "@/lib/base/errors";
import { permissions } from "@/lib/domain/keys/format";
import { checkAuthorizeRequest } from "@/lib/domain/oauth/check-authorize-request";
import { exchangeCode } from "@/lib/domain/oauth/exchange-code";
import { grantConsent } from "@/lib/domain/oauth/grant-consent";
import { registerClientFor } from "@/lib/domain/oauth/register-client";
import { s256 } from "@/lib/domain/oauth/secrets";
import { createWebhookFor } from "@/lib/domain/webhooks/create-webhook";
import { subscribableEventTypes } from "@/lib/domain/webhooks/fields";
import { sandboxReceiverUrl } from "@/lib/domain/webhooks/sandbox-receiver";
import { setAppWebhook } from "@/lib/domain/webhooks/set-app-webhook";
import type { SeededAccounts } from "./accounts";

export const integratorAppName = "Demo CRM";

/** Where the app sends the account holder back after consent: an app on the integrator's own machine (RFC 8252 loopback). */
export const integratorRedirectUri = "http://localhost:8976/oauth/callback";

export interface SeededIntegrations {
  app: { client_id: string; client_secret: string; owner: string; redirect_uri: string };
  connection: { account: string; connection_id: number; scope: string };
  /** The webhooks pointing at the sandbox's receiver, or why there are none. */
  webhooks: { id: string; account: string; url: string; app?: string }[] | { skipped: string };
}

/**
 * The integration side of the sandbox, through the services the portal and `POST /oauth/token` use:
 * the integrator's app "Demo CRM" with its webhook, the demo account's consent to it exchanged for
 * the connection's key (so the demo account's listings record events from now on), and a webhook
 * of the demo account's own. Both webhooks deliver to the sandbox's receiver (`/sandbox/webhooks`),
 * each to its owner's address there.
 *
 * The receiver is this server, so on a developer's machine its address is loopback, which webhook
 * addresses may be only with `UNSAFE_ALLOW_LOCAL_URLS=1` (`.env.development` sets it for
 * `npm run dev`). Without it the webhooks are left out and the result says why; everything else is made.
 */
export async function seedIntegrations({
  ctx,
  accounts,
}: {
  ctx: ServiceContext<OperatorActor | SystemActor>;
  accounts: SeededAccounts;
}): Promise<SeededIntegrations> {
  const { integrator, demo } = accounts;
  const app = await registerClientFor({
    ctx,
    input: { account_id: integrator.id, name: integratorAppName, redirect_uris: [integratorRedirectUri] },
  });

  const webhooks = await receiverWebhooks(async () => {
    const appWebhook = await setAppWebhook({
      ctx: asAccount(ctx, { accountId: integrator.id, agency: null }),
      input: { client_id: app.client_id, url: sandboxReceiverUrl(integrator.id), events: [...subscribableEventTypes] },
    });
    const own = await createWebhookFor({
      ctx,
      input: { account_id: demo.id, url: sandboxReceiverUrl(demo.id), events: [...subscribableEventTypes] },
    });
    return [
      { id: appWebhook.id, account: integrator.email, url: appWebhook.url, app: app.client_id },
      { id: own.id, account: demo.email, url: own.url },
    ];
  });

  const connection = await connect(ctx, demo.id, app.client_id, app.client_secret);
  return {
    app: { client_id: app.client_id, client_secret: app.client_secret, owner: integrator.email, redirect_uri: integratorRedirectUri },
    connection: { account: demo.email, connection_id: connection.connection_id, scope: connection.scope },
    webhooks,
  };
}

async function receiverWebhooks(create: () => Promise<{ id: string; account: string; url: string; app?: string }[]>) {
  try {
    return await create();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return {
      skipped:
        "the sandbox's receiver is on a loopback address, which webhooks may use only with UNSAFE_ALLOW_LOCAL_URLS=1 (set by .env.development for npm run dev)",
    };
  }
}

/** What the account holder pressing Allow, then the app exchanging the code with its PKCE verifier, do. */
async function connect(ctx: ServiceContext<OperatorActor | SystemActor>, accountId: string, clientId: string, clientSecret: string) {
  const verifier = randomBytes(32).toString("base64url");
  const check = await checkAuthorizeRequest({
    ctx,
    input: {
      response_type: "code",
      client_id: clientId,
      redirect_uri: integratorRedirectUri,
      scope: permissions.join(" "),
      state: randomBytes(16).toString("base64url"),
      code_challenge: s256(verifier),
      code_challenge_method: "S256",
    },
  });
  if (check.kind !== "ok") throw new Error(`the sandbox app's consent request was refused: ${check.kind}`);
  const consent = await grantConsent({ ctx: asAccount(ctx, { accountId, agency: null }), input: check });
  if (consent.kind !== "redirect") throw new Error(`the demo account's consent was refused: ${consent.reason}`);
  return exchangeCode({
    ctx,
    input: {
      authorization: null,
      form: {
        grant_type: "authorization_code",
        code: consent.code,
        redirect_uri: integratorRedirectUri,
        code_verifier: verifier,
        client_id: clientId,
        client_secret: clientSecret,
      },
    },
  });
}
