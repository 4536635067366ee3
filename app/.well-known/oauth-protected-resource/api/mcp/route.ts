// GET /.well-known/oauth-protected-resource/api/mcp – the MCP endpoint's protected resource metadata (RFC 9728)
import { mcpResourceMetadata } from "@/lib/adapters/mcp/protected-resource";

// The origin is APP_URL of the running server, never of the machine that built it.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json(mcpResourceMetadata(), {
    headers: { "Cache-Control": "public, max-age=3600", "Access-Control-Allow-Origin": "*", "X-Content-Type-Options": "nosniff" },
  });
}
