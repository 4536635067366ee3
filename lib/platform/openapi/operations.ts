import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import type { RouteDeclaration } from "@/lib/platform/http/route";
import { problemResponses, rateLimitHeaders } from "./components";

type Responses = ZodOpenApiOperationObject["responses"];

const localeParameter = z.object({
  locale: z.enum(["ro", "en"]).optional().meta({ description: "Language of titles, details and labels." }),
});

/**
 * The operation of one route declaration: its security, the refusals every operation can give and
 * the rate-limit headers are added here once, so a declaration states only what is its own.
 */
export function operationOf(route: RouteDeclaration): ZodOpenApiOperationObject {
  const keyed = route.permission !== "public";
  // Every operation goes through the pipeline, which needs the database: any of them can answer 503.
  const refusals = [...new Set([...(keyed ? [401, 403] : []), 429, ...(route.errors ?? []), 503])].sort((a, b) => a - b);
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(route.responses)) {
    responses[status] = {
      description: r.description,
      headers: { ...rateLimitHeaders, ...r.headers },
      ...(r.schema ? { content: { "application/json": { schema: r.schema } } } : {}),
    };
  }
  Object.assign(responses, problemResponses(...refusals));
  const permissionNote = keyed ? `\n\nPermission: \`${route.permission}\`.` : "\n\nNo key needed.";
  const body = route.body;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description ?? ""}${permissionNote}`.trim(),
    tags: [...route.tags],
    security: keyed ? [{ apiKey: [] }] : [],
    requestParams: {
      ...(route.params ? { path: route.params } : {}),
      ...(route.headers ? { header: route.headers } : {}),
      query: route.query ? localeParameter.extend(route.query.shape) : localeParameter,
    },
    ...(body
      ? {
          requestBody: {
            required: true,
            description: body.description,
            content: Object.fromEntries(
              (body.types ?? ["application/json"]).map((type) => [type, { schema: body.schema, example: body.example }]),
            ),
          },
        }
      : {}),
    responses: responses as Responses,
  };
}
