import { issuer } from "./internal/issuer";

/** Where the MCP endpoint is served, relative to the app's origin. */
export const mcpPath = "/api/mcp";

/** Where the REST API is served, relative to the app's origin. */
export const apiPath = "/api/v1";

/** The MCP endpoint's resource identifier (RFC 8707, RFC 9728 `resource`): its URL. */
export const mcpResource = (): string => `${issuer()}${mcpPath}`;

/** The REST API's resource identifier: its base URL. */
export const apiResource = (): string => `${issuer()}${apiPath}`;

/**
 * The resources a consent may be bound to (RFC 8707). A key granted for one is accepted there only;
 * a key granted without `resource` (an integrator app's, as before RFC 8707) is accepted by both.
 */
export const knownResources = (): string[] => [mcpResource(), apiResource()];

/** Whether a key bound to `bound` (null: to none) may act at `served`. */
export const resourceAccepts = (served: string, bound: string | null): boolean => bound === null || bound === served;
