import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import { permissions } from "@/lib/domain/keys/format";
import { checkAuthorizeRequest } from "@/lib/domain/oauth/check-authorize-request";
import { grantConsent } from "@/lib/domain/oauth/grant-consent";
import { redirectUri } from "@/lib/domain/oauth/redirect-uris";
import { codeChallengePattern } from "@/lib/domain/oauth/secrets";
import { registerClientFor } from "@/lib/domain/oauth/register-client";
import { publicWebhookUrl, subscribableEventTypes } from "@/lib/domain/webhooks/fields";
import { setAppWebhook } from "@/lib/domain/webhooks/set-app-webhook";
import { asAccount, withTransaction, type OperatorActor, type ServiceContext } from "@/lib/base/context";
import { AppError, ValidationError } from "@/lib/base/errors";
import { commaList, defineCommand } from "./command";

const email = z.email().transform((value) => value.toLowerCase());

async function accountIdOf(ctx: ServiceContext<OperatorActor>, address: string): Promise<string> {
  const [account] = await ctx.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, address));
  if (!account) throw new ValidationError([{ pointer: "/email", code: "invalid_value", params: { reason: "unknown_account_email" } }]);
  return account.id;
}

/** A scope as OAuth writes it (spaces) or as the other commands take lists (commas). */
const scope = z
  .string()
  .transform((value) => value.split(/[\s,]+/).filter(Boolean))
  .pipe(z.array(z.enum(permissions)).min(1));

export const oauthCommands = [
  defineCommand({
    name: "client:create",
    summary:
      "Registers an integrator app (OAuth client) of the account with this e-mail; --redirect-uri takes one address or several separated by commas (https://, or http:// on a loopback host). Prints client_id and client_secret (shown once). With --webhook-url and --events (comma-separated event types) the app gets its webhook, which receives the events of its connections: webhook_id and webhook_secret (shown once) are printed too.",
    // The addresses are checked here too, so that a refusal names the flag (`/redirect-uri/0`).
    args: z
      .object({
        email,
        name: z.string(),
        "redirect-uri": commaList(redirectUri),
        "webhook-url": z.string().optional(),
        events: commaList(z.enum(subscribableEventTypes)).optional(),
      })
      .superRefine((args, issues) => {
        const pair = ["webhook-url", "events"] as const;
        for (const [present, missing] of [pair, [...pair].reverse()])
          if (args[present] !== undefined && args[missing] === undefined)
            issues.addIssue({ code: "custom", path: [missing], params: { code: "required_with", params: { other: present } } });
      }),
    run: async (ctx, args) => {
      const accountId = await accountIdOf(ctx, args.email);
      // Checked here too, so that a refusal names the flag (`/webhook-url`) before anything is written.
      const webhookUrl = args["webhook-url"] === undefined ? undefined : await publicWebhookUrl(args["webhook-url"], "/webhook-url");
      // One transaction: a webhook refused there (the account's limit) leaves no app behind.
      return withTransaction(ctx, async (tx) => {
        const client = await registerClientFor({
          ctx: tx,
          input: { account_id: accountId, name: args.name, redirect_uris: args["redirect-uri"] },
        });
        if (webhookUrl === undefined || args.events === undefined) return { ...client };
        const webhook = await setAppWebhook({
          ctx: asAccount(tx, { accountId, agency: null }),
          input: { client_id: client.client_id, url: webhookUrl, events: args.events },
        });
        return { ...client, webhook_id: webhook.id, webhook_secret: webhook.secret };
      });
    },
  }),
  defineCommand({
    name: "oauth:consent",
    summary:
      "What pressing Allow on the consent page does for the account with this e-mail: prints the single-use code (60 s) and the redirect address carrying it. Scope: permissions separated by spaces or commas.",
    args: z.object({
      email,
      "client-id": z.string().min(1),
      "redirect-uri": z.string().min(1),
      scope,
      "code-challenge": z.string().regex(codeChallengePattern),
      state: z.string().min(1).optional(),
    }),
    run: async (ctx, args) => {
      const accountId = await accountIdOf(ctx, args.email);
      const check = await checkAuthorizeRequest({
        ctx,
        input: {
          response_type: "code",
          client_id: args["client-id"],
          redirect_uri: args["redirect-uri"],
          scope: args.scope.join(" "),
          // The page requires the app's state; a command has no request to tie it to, so one is made up when none is given.
          state: args.state ?? randomBytes(16).toString("base64url"),
          code_challenge: args["code-challenge"],
          code_challenge_method: "S256",
        },
      });
      if (check.kind === "invalid_client_or_redirect") {
        const unknownClient = check.reason === "unknown_client";
        throw new ValidationError([
          unknownClient
            ? { pointer: "/client-id", code: "invalid_value", params: { reason: "unknown_client" } }
            : { pointer: "/redirect-uri", code: "invalid_value", params: { reason: "redirect_uri_not_registered" } },
        ]);
      }
      if (check.kind === "redirect_error") throw new AppError(check.error);
      const consent = await grantConsent({ ctx: asAccount(ctx, { accountId, agency: null }), input: check });
      if (consent.kind === "refused") {
        throw consent.reason === "too_many_keys"
          ? new AppError("limit_reached", { reason: "too_many_keys", limit: consent.limit })
          : new AppError("forbidden");
      }
      return { code: consent.code, redirect_to: consent.redirectTo };
    },
  }),
];
