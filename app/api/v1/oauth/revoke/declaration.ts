import { z } from "zod";
import { defineRoute } from "@/lib/adapters/http/route";
import { formContentType } from "@/lib/adapters/http/form";
import { noStoreHeaders, oauthErrorResponses } from "../errors";

export const revokeRoute = defineRoute({
  method: "POST",
  path: "/oauth/revoke",
  operationId: "revokeOAuthToken",
  summary: "Revoke an app's key",
  description:
    "RFC 7009. The app authenticates as at `POST /oauth/token`. A key of one of the app's connections is revoked at once and the connection ends; the account holder must consent again. Any other token gets the same empty 200. Rate limited per address.",
  tags: ["OAuth"],
  permission: "public",
  body: {
    schema: z.object({
      token: z.string().meta({ description: "The `access_token` to revoke." }),
      token_type_hint: z.string().optional().meta({ description: "Ignored: every token is an access token." }),
      client_id: z
        .string()
        .optional()
        .meta({ description: "`svcc_…`, or the https URL of the app's client ID metadata document; or in HTTP Basic." }),
      client_secret: z.string().optional().meta({ description: "`svcs_…`; or in HTTP Basic. Server side only." }),
    }),
    types: [formContentType],
    checkedBy: "revokeToken (lib/domain/oauth/revoke-token.ts): OAuth errors, not 422",
    example: {
      token: "key_0123456789abcdef|svc_test_0123456789abcdefghijklmnopqrstuvwxyzABCD",
      client_id: "svcc_0123456789abcdef",
      client_secret: "svcs_0123456789abcdefghijklmnopqrstuvwxyzABCD",
    },
  },
  responses: {
    200: { description: "Revoked, or not a key of this app's connections (the same answer). Empty body.", headers: noStoreHeaders },
    ...oauthErrorResponses(
      "OAuthRevocationError",
      ["invalid_request"],
      "`invalid_request`: `token` missing, a parameter repeated, a body that is not `application/x-www-form-urlencoded`, or two app authentications.",
    ),
  },
  errors: [400, 401],
});
