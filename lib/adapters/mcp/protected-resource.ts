import { config } from "@/lib/base/config";
import { permissions } from "@/lib/domain/keys/format";
import { mcpPath, mcpResource } from "@/lib/domain/oauth/resources";

export { mcpPath, mcpResource };

const origin = () => config().APP_URL.replace(/\/+$/, "");

/** RFC 9728 §3.1: the well-known path with the resource's own path appended. */
export const mcpResourceMetadataUrl = (): string => `${origin()}/.well-known/oauth-protected-resource${mcpPath}`;

/**
 * The endpoint's protected resource metadata (RFC 9728): its identifier and the authorization server
 * whose tokens it accepts (ours: its issuer is the app's origin, as in the RFC 8414 document).
 */
export function mcpResourceMetadata() {
  return {
    resource: mcpResource(),
    authorization_servers: [origin()],
    bearer_methods_supported: ["header"],
    scopes_supported: [...permissions],
    resource_name: "Listings API (MCP)",
    resource_documentation: `${origin()}/docs/ai-agents`,
  };
}
