import { z } from "zod";
import { permissions } from "@/lib/domain/keys/format";
import { defineRoute } from "@/lib/adapters/http/route";

export const pingRoute = defineRoute({
  method: "GET",
  path: "/ping",
  operationId: "ping",
  summary: "Check a key",
  description: "Checks the key and the whole request pipeline end to end.",
  tags: ["Keys"],
  permission: "any key",
  responses: {
    200: {
      description: "The key and account the request acts for.",
      schema: z.object({
        data: z.object({
          pong: z.literal(true),
          api_version: z.string(),
          environment: z.enum(["sandbox", "production"]),
          locale: z.enum(["ro", "en"]),
          key: z.object({ id: z.string(), name: z.string(), permissions: z.array(z.enum(permissions)) }),
          account: z.object({ id: z.string() }),
        }),
      }),
    },
  },
});
