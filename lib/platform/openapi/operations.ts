import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import type { Permission } from "@/lib/domain/keys/format";
import { problemResponses, rateLimitHeaders } from "./components";

type Responses = ZodOpenApiOperationObject["responses"];

/** One operation of the document: the security, the common refusals and the rate-limit headers added once here. */
export function operation(spec: {
  summary: string;
  description?: string;
  tags: string[];
  permission: Permission | "any key" | "public";
  params?: ZodOpenApiOperationObject["requestParams"];
  body?: { schema: z.ZodType; types?: string[]; description?: string; example?: unknown };
  responses: Record<string, { description: string; schema?: z.ZodType; headers?: Record<string, unknown> }>;
  errors?: number[];
}): ZodOpenApiOperationObject {
  const keyed = spec.permission !== "public";
  // Every operation goes through the pipeline, which needs the database: any of them can answer 503.
  const refusals = [...(keyed ? [401, 403] : []), 429, ...(spec.errors ?? []), 503];
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    responses[status] = {
      description: r.description,
      headers: { ...rateLimitHeaders, ...r.headers } as never,
      ...(r.schema ? { content: { "application/json": { schema: r.schema } } } : {}),
    };
  }
  Object.assign(responses, problemResponses(...refusals));
  const permissionNote = keyed ? `\n\nPermission: \`${spec.permission}\`.` : "\n\nNo key needed.";
  return {
    summary: spec.summary,
    description: `${spec.description ?? ""}${permissionNote}`.trim(),
    tags: spec.tags,
    security: keyed ? [{ apiKey: [] }] : [],
    requestParams: {
      ...spec.params,
      query: z
        .object({ locale: z.enum(["ro", "en"]).optional().meta({ description: "Language of titles, details and labels." }) })
        .extend(spec.params?.query instanceof z.ZodObject ? spec.params.query.shape : {}),
    },
    ...(spec.body
      ? {
          requestBody: {
            required: true,
            description: spec.body.description,
            content: Object.fromEntries(
              (spec.body.types ?? ["application/json"]).map((t) => [
                t,
                { schema: spec.body!.schema, ...(spec.body!.example ? { example: spec.body!.example } : {}) },
              ]),
            ),
          },
        }
      : {}),
    responses: responses as Responses,
  };
}
