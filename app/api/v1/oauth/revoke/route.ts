// POST /oauth/revoke – the app gives up a key of one of its connections (RFC 7009): always an empty 200 once authenticated
import { revokeToken } from "@/lib/domain/oauth/revoke-token";
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { readForm } from "@/lib/adapters/http/form";
import { methods } from "@/lib/adapters/http/methods";
import { noStore, oauthResponse } from "@/lib/adapters/http/oauth";
import { revokeRoute } from "./declaration";

const revoke = endpoint(revokeRoute, async ({ ctx, request, locale, requestId }) =>
  oauthResponse({ locale, requestId }, async () => {
    const form = await readForm(request);
    await revokeToken({ ctx, input: { authorization: request.headers.get("authorization"), form } });
    return new Response(null, { status: 200, headers: noStore });
  }),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(revoke);
