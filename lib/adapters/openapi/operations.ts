import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import type { RouteDeclaration } from "@/lib/adapters/http/route";
import { problemResponses, rateLimitHeaders } from "./components";

type Responses = ZodOpenApiOperationObject["responses"];

const localeParameter = z.object({
  locale: z.enum(["ro", "en"]).optional().meta({ description: "Language of titles, details and labels." }),
});

/**
 * The refusals documented for an operation: those every operation can give, then its own. Every one
 * takes `locale` (an invalid value is a 422), can fail unexpectedly (an opaque 500 with the request
 * id) and goes through the pipeline, which needs the database (503 when it cannot be reached).
 */
export function documentedRefusals(route: RouteDeclaration): number[] {
  const common = [...(route.permission === "public" ? [] : [401, 403]), 422, 429, 500, 503];
  return [...new Set([...common, ...(route.errors ?? [])])].sort((a, b) => a - b);
}

/**
 * The operation of one route declaration: its security, the refusals every operation can give and
 * the rate-limit headers are added here once, so a declaration states only what is its own.
 */
export function operationOf(route: RouteDeclaration): ZodOpenApiOperationObject {
  const keyed = route.permission !== "public";
  const refusals = documentedRefusals(route);
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(route.responses)) {
    responses[status] = {
      description: r.description,
      headers: { ...rateLimitHeaders, ...r.headers },
      ...(r.schema ? { content: { "application/json": { schema: r.schema } } } : {}),
    };
  }
  // A refusal the declaration describes itself (the OAuth errors) keeps its own body; the others are problems.
  Object.assign(responses, problemResponses(...refusals.filter((status) => !route.responses[status])));
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
              (body.types ?? ["application/json"]).map((type) => [
                type,
                body.variants?.[type] ?? { schema: body.schema, example: body.example },
              ]),
            ),
          },
        }
      : {}),
    responses: responses as Responses,
  };
}
