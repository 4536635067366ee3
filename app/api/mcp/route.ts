// POST /api/mcp – the Model Context Protocol endpoint (Streamable HTTP, stateless): the API's tools for AI agents
import { publicEndpoint } from "@/lib/adapters/http/endpoint";
import { corsPreflight, withCors } from "@/lib/adapters/mcp/cors";
import { mcpEndpoint } from "@/lib/adapters/mcp/endpoint";
import { AppError } from "@/lib/base/errors";
import { rateRules } from "@/lib/infra/rate-limit";
import { mcpTools } from "./tools";

export const POST = withCors(mcpEndpoint(mcpTools));

/** Stateless: no stream to open with GET and no session to end with DELETE (the transport's 405). */
const notAllowed = withCors(
  publicEndpoint(rateRules.ip, async (req) => {
    throw new AppError("method_not_allowed", { method: req.request.method, allow: "POST" }, {}, { Allow: "POST" });
  }),
);

export const GET = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = corsPreflight;
