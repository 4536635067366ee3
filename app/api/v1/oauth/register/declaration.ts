import { z } from "zod";
import { defineRoute } from "@/lib/adapters/http/route";
import { noStoreHeaders, oauthErrorResponses } from "../errors";

const grantTypes = z
  .array(z.string())
  .meta({ description: "`authorization_code`; a `refresh_token` asked for is dropped (keys last 365 days)." });

export const registerClientRoute = defineRoute({
  method: "POST",
  path: "/oauth/register",
  operationId: "registerPublicClient",
  summary: "Register a public client (MCP)",
  description:
    "RFC 7591 dynamic client registration, for MCP clients that know nothing but the endpoint's URL: the client registers itself as a public client (no secret, `token_endpoint_auth_method: none`), then uses the authorization code flow with PKCE S256 like any app. Nobody reviews such a client, so the consent page says it registered itself and shows the host it returns to. An app that keeps a secret is registered by its account in the portal instead. Rate limited to 20 registrations an hour per address.",
  tags: ["OAuth"],
  permission: "public",
  rateRule: "clientRegistration",
  body: {
    schema: z.object({
      redirect_uris: z
        .array(z.string())
        .meta({ description: "1 to 10: `https://`, or `http://` on 127.0.0.1, localhost or [::1] (any port), no fragment." }),
      client_name: z.string().optional().meta({ description: "1 to 100 characters, shown on the consent page as the app's own claim." }),
      client_uri: z.string().optional().meta({ description: "An `https://` home page, shown as the app's own claim." }),
      token_endpoint_auth_method: z.literal("none").optional(),
      grant_types: grantTypes.optional(),
      response_types: z.array(z.literal("code")).optional(),
    }),
    checkedBy: "registerPublicClient (lib/domain/oauth/register-public-client.ts): RFC 7591 errors, not 422",
    example: {
      client_name: "Claude Code",
      redirect_uris: ["http://localhost:33418/callback"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    },
  },
  responses: {
    201: {
      description: "The client as registered (RFC 7591 §3.2.1), with the values this server put in place of the asked ones.",
      schema: z.object({
        client_id: z.string().meta({ description: "`svcc_…`: send it to the consent page and the token endpoint." }),
        client_id_issued_at: z.number().int(),
        client_name: z.string(),
        client_uri: z.string().optional(),
        redirect_uris: z.array(z.string()),
        token_endpoint_auth_method: z.literal("none"),
        grant_types: z.array(z.literal("authorization_code")),
        response_types: z.array(z.literal("code")),
      }),
      headers: noStoreHeaders,
    },
    ...oauthErrorResponses(
      "OAuthRegistrationError",
      ["invalid_client_metadata", "invalid_redirect_uri"],
      "`invalid_redirect_uri` (none, more than 10, or one not allowed), or `invalid_client_metadata` (an authentication method other than `none`, grant or response types other than the authorization code, a name or home page not allowed, a body that is not a JSON object).",
    ),
  },
  errors: [400],
});
