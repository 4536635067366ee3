import { z } from "zod";
import { defineRoute } from "@/lib/adapters/http/route";

export const openApiRoute = defineRoute({
  method: "GET",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  summary: "This OpenAPI document",
  description: "The OpenAPI 3.1 document of v1, built from the same route declarations that validate requests.",
  tags: ["Meta"],
  permission: "public",
  rateRule: "schema",
  responses: { 200: { description: "The document.", schema: z.record(z.string(), z.unknown()) } },
});
