import { z } from "zod";
import { defineRoute } from "@/lib/adapters/http/route";
import { formContentType } from "@/lib/adapters/http/form";
import { noStoreHeaders, oauthErrorResponses } from "../errors";

export const tokenRoute = defineRoute({
  method: "POST",
  path: "/oauth/token",
  operationId: "exchangeOAuthCode",
  summary: "Exchange an authorization code for a key",
  description:
    "RFC 6749 §4.1.3 with PKCE (RFC 7636, S256). The app authenticates with HTTP Basic (`client_id:client_secret`, each form-urlencoded) or with `client_id` and `client_secret` in the body, not both; a public client (registered at `POST /oauth/register`) sends its `client_id` alone. A consent asked with `resource` (RFC 8707) grants a key accepted at that resource only. The code is valid 60 seconds and once: presenting it again is refused and revokes the key it granted. The answer is the account key (365 days) for the app's connection to the account; a new consent keeps `connection_id` and replaces the previous key. Rate limited per address.",
  tags: ["OAuth"],
  permission: "public",
  body: {
    schema: z.object({
      grant_type: z.literal("authorization_code"),
      code: z.string().meta({ description: "The `code` received at the redirect address." }),
      redirect_uri: z.string().meta({ description: "Exactly the `redirect_uri` of the consent request." }),
      code_verifier: z
        .string()
        .min(43)
        .max(128)
        .regex(/^[A-Za-z0-9\-._~]+$/)
        .meta({ description: "The PKCE verifier whose S256 hash was the `code_challenge`." }),
      client_id: z
        .string()
        .optional()
        .meta({ description: "`svcc_…`, or the https URL of the app's client ID metadata document; or in HTTP Basic." }),
      client_secret: z
        .string()
        .optional()
        .meta({ description: "`svcs_…`; or in HTTP Basic. Server side only. A public client (self-registered) sends none." }),
      resource: z.string().optional().meta({
        description: "RFC 8707: if sent, exactly the `resource` of the consent request; the key is bound to that resource either way.",
      }),
    }),
    types: [formContentType],
    checkedBy: "exchangeCode (lib/domain/oauth/exchange-code.ts): OAuth errors, not 422",
    example: {
      grant_type: "authorization_code",
      code: "SplxlOBeZQQYbYS6WxSbIA7kJ9vB1kcXRrYtCJJ1Fjo",
      redirect_uri: "https://crm.example.com/oauth/callback",
      code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
      client_id: "svcc_0123456789abcdef",
      client_secret: "svcs_0123456789abcdefghijklmnopqrstuvwxyzABCD",
    },
  },
  responses: {
    200: {
      description: "The account key for the app's connection.",
      schema: z.object({
        access_token: z.string().meta({ description: "The account key; send it as `Authorization: Bearer`." }),
        token_type: z.literal("Bearer"),
        expires_in: z.number().int().meta({ description: "Seconds until the key expires (365 days)." }),
        scope: z.string().meta({ description: "The granted permissions, separated by spaces." }),
        connection_id: z
          .number()
          .int()
          .meta({ description: "The app's connection to the account: the `connection` member of events delivered to the app's webhook." }),
      }),
      headers: noStoreHeaders,
    },
    ...oauthErrorResponses(
      "OAuthTokenError",
      ["invalid_request", "invalid_grant", "unsupported_grant_type", "invalid_target"],
      "`invalid_request` (a parameter missing, repeated or malformed, a body that is not `application/x-www-form-urlencoded`, two app authentications), `unsupported_grant_type`, `invalid_grant` (the code unknown, another app's, expired, used, for another `redirect_uri`, or the verifier does not match), or `invalid_target` (a `resource` other than the consent's).",
    ),
  },
  errors: [400, 401],
});
