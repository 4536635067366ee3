import { createDocument, type ZodOpenApiPathItemObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { config } from "@/lib/base/config";
import type { RouteDeclaration } from "@/lib/adapters/http/route";
import { apiRelease } from "@/lib/base/api-release";
import { operationOf } from "./operations";
import { webhookPathItems } from "./webhooks";

const tags = [
  { name: "Keys", description: "Checking a key and the request pipeline." },
  { name: "Vocabulary", description: "The public code lists, labels, currencies and field metadata (no key)." },
  { name: "Listings", description: "The account's listings: create, validate, edit, delete, state changes and reads." },
  { name: "Catalog", description: "Active listings of every account, readable with any valid key." },
  {
    name: "Photos",
    description:
      "A listing's ordered photos: direct uploads through a pre-signed URL, the photo list, processed in the background (`media.processing`, `media.failed`).",
  },
  { name: "Events", description: "State changes of the account's listings, for polling." },
  {
    name: "OAuth",
    description:
      "Connecting an integrator app to an account: the code exchange and revocation (RFC 6749, RFC 7636, RFC 7009); the self-registration of public clients such as MCP agents (RFC 7591) and resource indicators (RFC 8707).",
  },
  { name: "Sandbox", description: "Simulations that exist in the sandbox only." },
  { name: "Meta", description: "This document." },
  {
    name: "Webhooks",
    description:
      "What the platform sends to a subscriber's webhook address, one request per event. Webhooks are set in the portal's API settings, not through this API.",
  },
];

/**
 * The OpenAPI 3.1 document of v1, built from the route declarations (app/api/v1/routes.ts passes
 * them; lib never imports app): paths, parameters, bodies, responses and permissions come from the
 * same declarations the endpoint wrapper validates requests with, so nothing is declared twice.
 */
export function openApiDocument(routes: readonly RouteDeclaration[]) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const item: ZodOpenApiPathItemObject = (paths[route.path] ??= {});
    const method = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
    if (item[method]) throw new Error(`${route.method} ${route.path} is declared twice`);
    item[method] = operationOf(route);
  }
  return withExplicitOpenObjects(
    createDocument({
      openapi: "3.1.0",
      info: {
        title: "Listings Publishing API",
        version: apiRelease,
        description:
          "Publish and manage real-estate listings on behalf of an account. Errors are RFC 9457 problems with stable codes; every response carries `X-Request-Id` and rate-limit headers. Bodies up to 1 MiB. Unknown query parameters are ignored; unknown body members are ignored and reported in `warnings[]`; read-only members are refused (422 `invalid`). AI agents use the same keys and OAuth through the MCP endpoint `/api/mcp` (Streamable HTTP; guide: /docs/ai-agents).",
        // Not open source: offered to integrators under the platform's terms. SPDX lists no identifier
        // for that, so it is a `LicenseRef-` one (SPDX's form for licenses outside its list).
        license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      },
      // Relative to this document (`/api/v1/openapi.json`): the same document serves the sandbox and
      // production, each at its own origin, and names no host that is wrong for the other.
      servers: [{ url: "/api/v1", description: `This deployment (${config().APP_ENV})` }],
      tags,
      components: {
        securitySchemes: {
          apiKey: {
            type: "http",
            scheme: "bearer",
            description: "`<id>|svc_test_<secret>` (sandbox) or `<id>|svc_live_<secret>` (production).",
          },
        },
      },
      paths,
      webhooks: webhookPathItems(),
    }),
  );
}

/**
 * zod writes a record of anything (`z.record(z.string(), z.unknown())`: a listing's `facts`, an
 * event's `data`) as `propertyNames: {type: string}` and `additionalProperties: {}`. Both say no more
 * than an object with any members, but Scalar's reference checks every schema for a `type` and logs a
 * document warning for the empty one; `additionalProperties: true` says the same in the form it
 * reads, and JSON's member names are strings anyway.
 */
function withExplicitOpenObjects<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withExplicitOpenObjects) as T;
  if (!node || typeof node !== "object") return node;
  const entries = Object.entries(node).flatMap(([key, value]): [string, unknown][] => {
    if (key === "propertyNames" && JSON.stringify(value) === '{"type":"string"}') return [];
    if (key === "additionalProperties" && JSON.stringify(value) === "{}") return [[key, true]];
    return [[key, withExplicitOpenObjects(value)]];
  });
  return Object.fromEntries(entries) as T;
}
