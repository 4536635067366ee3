// GET /.well-known/oauth-authorization-server – authorization server metadata (RFC 8414): issuer, endpoints, PKCE S256, scopes
import { authorizationServerMetadata } from "@/lib/domain/oauth/metadata";

// The issuer is APP_URL of the running server, never of the machine that built it.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json(authorizationServerMetadata(), {
    // Public and the same for everyone: clients and browsers may keep it for an hour.
    headers: { "Cache-Control": "public, max-age=3600", "Access-Control-Allow-Origin": "*", "X-Content-Type-Options": "nosniff" },
  });
}
