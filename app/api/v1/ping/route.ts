// GET /ping – check a key and the whole request pipeline end to end
import { keyedEndpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { apiRelease } from "@/lib/openapi/info";
import { config } from "@/lib/config";

const ping = keyedEndpoint(null, async ({ principal, locale }) =>
  json({
    data: {
      pong: true,
      api_version: apiRelease,
      environment: config().APP_ENV,
      locale,
      key: { id: principal.key.id, name: principal.key.name, permissions: principal.key.permissions },
      account: { id: principal.account.id },
    },
  }),
);

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: ping });
