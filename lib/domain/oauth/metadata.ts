import { issuer } from "./internal/issuer";
import { scopesSupported } from "./internal/scope";

/**
 * Authorization server metadata (RFC 8414), served at `/.well-known/oauth-authorization-server`:
 * what a client library needs to find the endpoints and the methods they accept, and where a public
 * client registers itself.
 */
export function authorizationServerMetadata() {
  const origin = issuer();
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/api/v1/oauth/token`,
    revocation_endpoint: `${origin}/api/v1/oauth/revoke`,
    // RFC 7591: public clients (an MCP client that knows only the server's URL) register themselves here.
    registration_endpoint: `${origin}/api/v1/oauth/register`,
    // draft-ietf-oauth-client-id-metadata-document: a client_id may be the https URL of the client's own metadata document.
    client_id_metadata_document_supported: true,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code"],
    code_challenge_methods_supported: ["S256"],
    // `none`: a self-registered public client, which PKCE alone binds to its codes.
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    scopes_supported: [...scopesSupported],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${origin}/docs/api`,
  };
}
