import { describe, expect, it } from "vitest";
import { routes } from "@/app/api/v1/routes";
import { revokeAnyKey } from "@/lib/domain/keys/revoke-key";
import type { Permission } from "@/lib/domain/keys/format";
import { httpMethods, type RouteDeclaration } from "@/lib/adapters/http/route";
import { accountWithKey, allPermissions, call, operatorCtx } from "../support/fixtures";
import { declaredMethods, pathOf, routeModuleOf } from "../support/documented";
import { createListing, validApartment } from "../support/listings";

/**
 * The tests every keyed route gets by being declared (app/api/v1/routes.ts): the refusals of the
 * pipeline, the 404 that does not tell another account's resource from a missing one, the 405 of a
 * method the path does not have, and the request id and rate-limit headers on each answer; and every
 * declared path, keyed or public, its `OPTIONS` answer.
 */

const keyed = routes.filter((route) => route.permission !== "public");

/** A listing of the caller or of another account, by code and by its own id, for the path parameters. */
async function ownedListing(key: string) {
  const ref = `common-${Math.random().toString(36).slice(2, 10)}`;
  const listing = await createListing(key, validApartment({ external_ref: ref }));
  return { code: listing.code, ref };
}

/** A request to the declaration's own handler (its route file's export), with the example body when it takes one. */
async function send(route: RouteDeclaration, key: string | undefined, params: Record<string, string>, method = route.method) {
  const handlers = await routeModuleOf(route.path);
  const withBody = route.body && method === route.method;
  const body = withBody ? route.body!.example : undefined;
  const headers = withBody && route.body!.types ? { "content-type": route.body!.types[0] } : undefined;
  return call(handlers[method], { path: pathOf(route, params), method, key, params, body, headers });
}

function expectPipelineHeaders(res: { headers: Headers }) {
  expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
  expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  expect(res.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
}

function expectProblem(res: { status: number; headers: Headers; json?: Record<string, unknown> }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.json)).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.json).toMatchObject({ status, code });
  expectPipelineHeaders(res);
}

/** Any permission but the route's own, so the key is valid and lacks only that. */
const allBut = (permission: Permission): Permission[] => allPermissions.filter((p) => p !== permission);

describe.each(keyed.map((route) => [`${route.method} ${route.path}`, route] as const))("%s – common route tests", (_, route) => {
  /** Path parameters naming a listing of the caller, so that only the key decides the answer. */
  async function callerWithParams(permissions: Permission[] = allPermissions) {
    const caller = await accountWithKey({ permissions });
    const owner = permissions.includes("listings:write") ? caller : await accountWithKey();
    return { caller, params: route.params ? pick(await ownedListing(owner.key)) : {} };
  }

  /** The path parameters the route declares, from a listing's code and ref. */
  const pick = (listing: Record<string, string>) =>
    Object.fromEntries(Object.keys(route.params?.shape ?? {}).map((name) => [name, listing[name]]));

  it("answers 401 without a key, with a wrong key, with a key of the other environment and with a revoked key", async () => {
    const { caller, params } = await callerWithParams();
    const wrong = `${caller.keyId}|svc_test_${"x".repeat(40)}`;
    const otherEnvironment = caller.key.replace("svc_test_", "svc_live_");
    const revoked = await accountWithKey();
    await revokeAnyKey({ ctx: await operatorCtx(), input: { id: revoked.keyId } });
    for (const key of [undefined, wrong, otherEnvironment, revoked.key]) {
      const res = await send(route, key, params);
      expectProblem(res, 401, "unauthenticated");
      // RFC 6750 §3: the challenge on every 401, `invalid_token` once a key was sent.
      expect(res.headers.get("www-authenticate")).toBe(key === undefined ? "Bearer" : 'Bearer error="invalid_token"');
      // What the credential shows by itself is told apart; what needs the database is not.
      const reason = key === undefined ? "missing_key" : key === otherEnvironment ? "production_key" : undefined;
      expect(res.json?.reason).toBe(reason);
    }
  });

  // Only declared where they apply, so that no route reports a skipped test.
  if (route.permission !== "any key")
    it("answers 403 missing_ability to a valid key without the route's permission", async () => {
      const { caller, params } = await callerWithParams(allBut(route.permission as Permission));
      expectProblem(await send(route, caller.key, params), 403, "missing_ability");
    });

  // A listing of another account answers exactly like one that does not exist. Not for the public
  // catalog (any key reads every active listing) nor where the path names what is created
  // (`PUT /listings/ref/{ref}`: refs are per account, another account's ref creates the caller's own).
  if (route.params && route.permission !== "any key" && route.invalidPath !== "invalid")
    it("answers another account's listing with the same 404 as a missing one", async () => {
      const caller = await accountWithKey();
      const stranger = await accountWithKey();
      const theirs = await ownedListing(stranger.key);
      const missing = { code: "ZZZZZZZZ", ref: "no-such-ref" };
      const foreign = await send(route, caller.key, pick(theirs));
      const absent = await send(route, caller.key, pick(missing));
      expectProblem(foreign, 404, "not_found");
      expectProblem(absent, 404, "not_found");
      expect(foreign.json).toEqual(absent.json);
    });

  it("answers a method the path does not have with 405 and Allow", async () => {
    const allowed = declaredMethods(route.path);
    const other = httpMethods.find((method) => !allowed.includes(method))!;
    const { caller, params } = await callerWithParams();
    const res = await send(route, caller.key, params, other);
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toBe(allowed.join(", "));
  });

  it("answers a valid request with a request id and the rate-limit headers", async () => {
    const { caller, params } = await callerWithParams();
    const res = await send(route, caller.key, params);
    expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
    expectPipelineHeaders(res);
  });
});

describe.each([...new Set(routes.map((route) => route.path))])("OPTIONS %s – common route tests", (declaredPath) => {
  it("answers 204 with the path's Allow, a request id and the rate-limit headers", async () => {
    const handlers = await routeModuleOf(declaredPath);
    const res = await call(handlers.OPTIONS, { path: declaredPath.replace(/\{\w+\}/g, "x"), method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(res.headers.get("allow")).toBe(declaredMethods(declaredPath).join(", "));
    expectPipelineHeaders(res);
  });
});
