// POST /oauth/token – exchange an authorization code (PKCE S256) for the account key of the app's connection
import { exchangeCode } from "@/lib/domain/oauth/exchange-code";
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { readForm } from "@/lib/adapters/http/form";
import { methods } from "@/lib/adapters/http/methods";
import { noStore, oauthResponse } from "@/lib/adapters/http/oauth";
import { json } from "@/lib/adapters/http/respond";
import { tokenRoute } from "./declaration";

const token = endpoint(tokenRoute, async ({ ctx, request, locale, requestId }) =>
  oauthResponse({ locale, requestId }, async () => {
    const form = await readForm(request);
    const answer = await exchangeCode({ ctx, input: { authorization: request.headers.get("authorization"), form } });
    return json(answer, { headers: noStore });
  }),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(token);
