// POST /oauth/register – an MCP client registers itself as a public client (RFC 7591)
import { registerPublicClient } from "@/lib/domain/oauth/register-public-client";
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { methods } from "@/lib/adapters/http/methods";
import { noStore, oauthResponse } from "@/lib/adapters/http/oauth";
import { json } from "@/lib/adapters/http/respond";
import { registerClientRoute } from "./declaration";

const register = endpoint(registerClientRoute, async ({ ctx, body, locale, requestId }) =>
  oauthResponse({ locale, requestId }, async () => {
    const client = await registerPublicClient({ ctx, input: await body() });
    return json(client, { status: 201, headers: noStore });
  }),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(register);
