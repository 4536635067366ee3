import { z } from "zod";
import type { ResponseDeclaration } from "@/lib/adapters/http/route";

const noStoreHeaders = {
  "Cache-Control": { description: "`no-store`: never cached (RFC 6749 §5.1).", schema: { type: "string" as const } },
  Pragma: { description: "`no-cache`.", schema: { type: "string" as const } },
};

const oauthError = <C extends [string, ...string[]]>(codes: C) =>
  z.object({
    error: z.enum(codes).meta({ description: "RFC 6749 §5.2 error code, stable." }),
    error_description: z.string().meta({ description: "The `detail` in ASCII (RFC 6749 allows no other characters)." }),
    type: z.string().meta({ description: "Address of the problem type: `{APP_URL}/problems/{code}`." }),
    title: z.string().meta({ description: "Human text in the request's language." }),
    status: z.number().int(),
    code: z.enum(codes).meta({ description: "The same as `error`." }),
    reason: z.string().optional().meta({ description: "Stable: why, more precisely than `code` (listed on the page `type` points at)." }),
    detail: z.string().meta({ description: "Human text in the request's language." }),
  });

const clientError = oauthError(["invalid_client"]).meta({ id: "OAuthClientError" });

/** The OAuth error answers of the token and revocation endpoints (docs/accounts.md, OAuth), declared once for both. */
export function oauthErrorResponses(
  id: string,
  badRequest: [string, ...string[]],
  description: string,
): Record<400 | 401, ResponseDeclaration> {
  return {
    400: {
      description: `${description} Body \`application/json\` with \`error\` and the problem members.`,
      schema: oauthError(badRequest).meta({ id }),
      headers: noStoreHeaders,
    },
    401: {
      description:
        "`invalid_client`: no app authentication, an unknown `client_id` or a wrong `client_secret`. After HTTP Basic, `WWW-Authenticate: Basic` comes with it.",
      schema: clientError,
      headers: {
        ...noStoreHeaders,
        "WWW-Authenticate": { description: 'After HTTP Basic: `Basic realm="oauth", charset="UTF-8"`.', schema: { type: "string" } },
      },
    },
  };
}

export { noStoreHeaders };
