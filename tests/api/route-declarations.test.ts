import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { apiDocument, routes } from "@/app/api/v1/routes";
import { declarationOf, httpMethods, type RouteDeclaration } from "@/lib/adapters/http/route";
import { resetConfig } from "@/lib/base/config";
import { accountWithKey, call, createdKeys } from "../support/fixtures";
import { consentCode, freshAccount, freshClient, postRevoke, postToken, tokenForm } from "../oauth/support";
import { pathOf, routeFileOf, routeModuleOf } from "../support/documented";
import { sendUpload, type Grant } from "../media/support";

const v1 = path.join(import.meta.dirname, "../../app/api/v1");

/** Every route.ts under app/api/v1 but the catch-all, which answers paths that are no operation (404). */
const routeFiles = readdirSync(v1, { recursive: true, encoding: "utf8" })
  .filter((file) => path.basename(file) === "route.ts" && !file.includes("[..."))
  .map((file) => path.join(v1, file))
  .sort();

describe("route declarations and the OpenAPI document", () => {
  it("finds every route file", () => {
    expect(routeFiles.length).toBeGreaterThanOrEqual(14);
  });

  it.each(routeFiles.map((file) => [path.relative(v1, file), file]))(
    "%s serves only declared handlers, each in the document at its own path",
    async (_, file) => {
      const handlers = (await import(file)) as Record<string, object>;
      const declared = httpMethods.flatMap((method) => {
        const declaration = declarationOf(handlers[method]);
        return declaration ? [[method, declaration] as const] : [];
      });
      expect(declared.length, "a route file with no declared handler").toBeGreaterThan(0);
      const paths = apiDocument().paths!;
      for (const [method, declaration] of declared) {
        expect(declaration.method).toBe(method);
        expect(routeFileOf(declaration.path)).toBe(file);
        expect(routes, `${method} ${declaration.path} is missing from app/api/v1/routes.ts`).toContain(declaration);
        const operation = paths[declaration.path]?.[method.toLowerCase() as "get"];
        expect(operation?.operationId).toBe(declaration.operationId);
      }
    },
  );

  it("gives every operation a unique operationId, and an example that its body schema accepts", () => {
    const ids = routes.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const route of routes.filter((r) => r.body)) {
      expect(route.body!.schema.safeParse(route.body!.example).success, `${route.operationId}'s example`).toBe(true);
    }
  });

  /**
   * Redocly's `no-ambiguous-paths` is off (redocly.yaml says why): the only ambiguous templates
   * allowed are `/listings/ref/{ref}` and `/listings/imports/{id}` beside `/listings/{code}/<action>` and
   * `/listings/{code}/photos` (no code is `ref` or `imports`: codes have 8 characters). Any other pair fails here.
   */
  it("has no ambiguous paths but the documented ref/action pairs", () => {
    const segments = (p: string) => p.split("/").slice(1);
    const paths = [...new Set(routes.map((route) => route.path))];
    const ambiguous: string[] = [];
    for (const a of paths) {
      for (const b of paths) {
        if (a >= b) continue;
        const [sa, sb] = [segments(a), segments(b)];
        if (sa.length !== sb.length) continue;
        const param = (s: string) => s.startsWith("{");
        const overlap = sa.every((s, i) => s === sb[i] || param(s) || param(sb[i]));
        // Ambiguous when neither is more specific: each has a literal segment where the other has a
        // parameter (a literal against a parameter alone is settled by the literal, as in Next.js).
        const aMoreLiteral = sa.some((s, i) => !param(s) && param(sb[i]));
        const bMoreLiteral = sb.some((s, i) => !param(s) && param(sa[i]));
        if (overlap && aMoreLiteral && bMoreLiteral) ambiguous.push(`${a} ~ ${b}`);
      }
    }
    expect(ambiguous).not.toEqual([]);
    const allowed = /^\/listings\/(ref\/\{ref\}|imports\/\{id\}) ~ \/listings\/\{code\}\/(pause|resume|sold|photos)$/;
    expect(ambiguous.filter((pair) => !allowed.test(pair))).toEqual([]);
  });
});

/**
 * Every documented operation answers, through its route file, with a documented success: a short
 * life of a listing that sends each declaration's own example body (the one `/docs/api` shows).
 * `call()` checks each answer against the declared response schema. A new declaration fails the last
 * assertion until it gets a step here.
 */
describe("every documented operation answers its documented success", () => {
  it("runs each operation once with its example", async () => {
    const { key } = await accountWithKey();
    const exercised = new Set<string>();
    const byId = (operationId: string): RouteDeclaration => routes.find((route) => route.operationId === operationId)!;
    const send = async (operationId: string, expected: number, params: Record<string, string> = {}) => {
      const route = byId(operationId);
      const handlers = await routeModuleOf(route.path);
      const headers = route.body?.types ? { "content-type": route.body.types[0] } : undefined;
      const res = await call(handlers[route.method], {
        path: pathOf(route, params),
        method: route.method,
        key,
        params,
        body: route.body?.example,
        headers,
      });
      expect(res.status, `${operationId}: ${res.text.slice(0, 500)}`).toBe(expected);
      exercised.add(operationId);
      return res;
    };

    await send("ping", 200);
    await send("getVocabulary", 200);
    await send("getOpenApiDocument", 200);
    await send("validateListing", 200);
    const { code } = (await send("createListing", 201)).json!.data;
    await send("editListing", 200, { code });
    await send("setListingPhotos", 202, { code });
    await send("simulateModeration", 200, { code });
    // The trigger names a listing in its body: the example's type, for the listing made above.
    const trigger = byId("triggerSandboxEvent");
    const triggered = await call((await routeModuleOf(trigger.path)).POST, {
      path: trigger.path,
      method: "POST",
      key,
      body: { ...(trigger.body!.example as object), code },
    });
    expect(triggered.status, triggered.text).toBe(202);
    exercised.add("triggerSandboxEvent");
    await send("listCatalog", 200);
    await send("getCatalogListing", 200, { code });
    await send("pauseListing", 200, { code });
    await send("resumeListing", 200, { code });
    await send("markListingSold", 200, { code });
    const ref = "docs-example-1";
    const byRef = (await send("upsertListingByRef", 201, { ref })).json!.data;
    await send("getAccountListingByRef", 200, { ref });
    await send("listAccountListings", 200);
    await send("getAccountListing", 200, { code: byRef.code });
    await send("listEvents", 200);
    // An import's example is NDJSON text, sent as it is rather than as a JSON string.
    const importRoute = byId("createListingImport");
    const imported = await call((await routeModuleOf(importRoute.path)).POST, {
      path: importRoute.path,
      method: "POST",
      key,
      rawBody: importRoute.body!.example as string,
      headers: { "content-type": importRoute.body!.types![0] },
    });
    expect(imported.status, imported.text).toBe(202);
    exercised.add("createListingImport");
    await send("getListingImport", 200, { id: imported.json!.data.id });
    await send("listListingImports", 200);
    await send("cancelListingImport", 200, { id: imported.json!.data.id });
    // The feed's example names a host that needs DNS: the same body on a loopback address, which
    // UNSAFE_ALLOW_LOCAL_URLS allows (the address is checked at creation, not fetched here).
    const feedRoute = byId("createFeed");
    vi.stubEnv("UNSAFE_ALLOW_LOCAL_URLS", "1");
    resetConfig();
    const feed = await call((await routeModuleOf(feedRoute.path)).POST, {
      path: feedRoute.path,
      method: "POST",
      key,
      body: { ...(feedRoute.body!.example as object), url: "http://127.0.0.1:9/listings.ndjson" },
    });
    vi.stubEnv("UNSAFE_ALLOW_LOCAL_URLS", "0");
    resetConfig();
    expect(feed.status, feed.text).toBe(201);
    exercised.add("createFeed");
    await send("listFeeds", 200);
    await send("getFeed", 200, { id: feed.json!.data.id });
    await send("pullFeed", 202, { id: feed.json!.data.id });
    await send("deleteFeed", 204, { id: feed.json!.data.id });
    const grant = (await send("createUpload", 201)).json as Grant;
    // The upload URL takes the file's bytes, not the example's text: the grant's own URL and headers.
    const bytes = new Uint8Array((byId("createUpload").body!.example as { content_length: number }).content_length);
    const uploadedFile = await sendUpload(grant.url, bytes, {
      ...grant.headers,
      "Content-Length": String(bytes.byteLength),
    });
    expect(uploadedFile.status, JSON.stringify(uploadedFile.json)).toBe(204);
    exercised.add("uploadFile");
    await send("deleteListing", 204, { code: byRef.code });

    await send("registerPublicClient", 201);

    // The OAuth endpoints take a form with a real code and app credentials rather than the example.
    const app = await freshClient();
    const connected = await freshAccount();
    const form = tokenForm(app, await consentCode(connected.id, app.client_id));
    const token = await postToken(form);
    expect(token.status, token.text).toBe(200);
    exercised.add("exchangeOAuthCode");
    createdKeys.push(token.json!.access_token as string);
    const revoked = await postRevoke({
      token: token.json!.access_token as string,
      client_id: form.client_id,
      client_secret: form.client_secret,
    });
    expect(revoked.status, revoked.text).toBe(200);
    exercised.add("revokeOAuthToken");

    expect([...exercised].sort()).toEqual(routes.map((route) => route.operationId).sort());
  });
});
