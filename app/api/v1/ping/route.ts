// GET /ping – check a key and the whole request pipeline end to end
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { pingRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { apiRelease } from "@/lib/base/api-release";
import { config } from "@/lib/base/config";

const ping = endpoint(pingRoute, async ({ principal, locale }) =>
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

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(ping);
