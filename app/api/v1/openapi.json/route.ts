// GET /openapi.json – the OpenAPI 3.1 document of this version, generated from the zod schemas
import { publicEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";
import { rateRules } from "@/lib/platform/http/rate-limit";
import { json } from "@/lib/platform/http/respond";
import { openApiDocument } from "@/lib/platform/openapi/document";

let cached: ReturnType<typeof openApiDocument> | undefined;

const document = publicEndpoint(rateRules.schema, async () => json((cached ??= openApiDocument())));

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: document });
