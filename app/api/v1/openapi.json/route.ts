// GET /openapi.json – the OpenAPI 3.1 document of this version, generated from the zod schemas
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { openApiRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { apiDocument } from "../routes";

let cached: ReturnType<typeof apiDocument> | undefined;

const document = endpoint(openApiRoute, async () => json((cached ??= apiDocument())));

export const { GET, POST, PUT, PATCH, DELETE } = methods(document);
