import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as unknownPath, POST as unknownPost } from "@/app/api/v1/[...path]/route";
import { GET, POST } from "@/app/api/v1/ping/route";
import { database } from "@/db";
import { accounts, apiKeys } from "@/db/schema";
import { generateKey } from "@/lib/domain/keys/format";
import { flushKeyUsage } from "@/lib/domain/keys/last-used";
import { revokeAnyKey } from "@/lib/domain/keys/revoke-key";
import { accountWithKey, call, operatorCtx } from "../support/fixtures";

const ping = (key?: string, extra: { path: string; headers?: Record<string, string> } = { path: "/ping" }) => call(GET, { ...extra, key });

describe("GET /ping – authentication", () => {
  it("answers 200 with the key and account for a valid key, with a request id and rate-limit headers", async () => {
    const { key, keyId, account } = await accountWithKey({ permissions: ["listings:read"] });
    const res = await ping(key);
    expect(res.status).toBe(200);
    expect(res.json?.data).toMatchObject({ pong: true, key: { id: keyId, permissions: ["listings:read"] }, account: { id: account.id } });
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    expect(res.headers.get("x-ratelimit-limit")).toBe("300");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("299");
    expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThanOrEqual(1);
  });

  const refusals: [string, () => Promise<string | undefined>][] = [
    ["missing", async () => undefined],
    ["malformed", async () => "not-a-key"],
    [
      "wrong secret",
      async () => {
        const { keyId } = await accountWithKey();
        return `${keyId}|${generateKey("sandbox").secret}`;
      },
    ],
    ["unknown id", async () => generateKey("sandbox").key],
    [
      "of the other environment",
      async () => {
        const { key } = await accountWithKey();
        return key.replace("svc_test_", "svc_live_");
      },
    ],
    [
      "expired",
      async () => {
        const { key, keyId } = await accountWithKey();
        const { connection: db } = await database();
        await db
          .update(apiKeys)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(apiKeys.id, keyId));
        return key;
      },
    ],
    [
      "revoked",
      async () => {
        const { key, keyId } = await accountWithKey();
        await revokeAnyKey({ ctx: await operatorCtx(), input: { id: keyId } });
        return key;
      },
    ],
    [
      "of an inactive account",
      async () => {
        const { key, account } = await accountWithKey();
        const { connection: db } = await database();
        await db.update(accounts).set({ active: false }).where(eq(accounts.id, account.id));
        return key;
      },
    ],
  ];

  it.each(refusals)("answers 401 unauthenticated for a key %s", async (_, makeKey) => {
    const res = await ping(await makeKey());
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.json).toMatchObject({ status: 401, code: "unauthenticated", type: expect.stringContaining("/problems/unauthenticated") });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("answers the same body for a revoked key as for an unknown one", async () => {
    const { key, keyId } = await accountWithKey();
    await revokeAnyKey({ ctx: await operatorCtx(), input: { id: keyId } });
    const revoked = await ping(key);
    const unknown = await ping(generateKey("sandbox").key);
    expect(revoked.json?.detail).toBe(unknown.json?.detail);
  });
});

describe("last use of a key", () => {
  it("is kept without a write per request: collected in memory and written in one statement", async () => {
    const { key, keyId } = await accountWithKey();
    const { connection: db } = await database();
    await ping(key);
    await ping(key);
    const [before] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(before.lastUsedAt).toBeNull();
    await flushKeyUsage();
    const [after] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(after.lastUsedAt).toBeInstanceOf(Date);
  });
});

describe("locale", () => {
  it("translates titles but never codes", async () => {
    const en = await ping(undefined, { path: "/ping?locale=en" });
    const ro = await ping(undefined, { path: "/ping?locale=ro" });
    expect(en.json?.code).toBe("unauthenticated");
    expect(ro.json?.code).toBe("unauthenticated");
    expect(en.json?.title).toBe("Unauthenticated");
    expect(ro.json?.title).toBe("Neautentificat");
  });

  it("prefers the query over the account language over Accept-Language", async () => {
    const { key } = await accountWithKey({ account: { locale: "en" } });
    expect((await ping(key, { path: "/ping", headers: { "accept-language": "ro" } })).json?.data.locale).toBe("en");
    expect((await ping(key, { path: "/ping?locale=ro" })).json?.data.locale).toBe("ro");
  });

  it("refuses an invalid locale with 422 and a pointer to the parameter", async () => {
    const { key } = await accountWithKey();
    const res = await ping(key, { path: "/ping?locale=de" });
    expect(res.status).toBe(422);
    expect(res.json?.errors).toEqual([expect.objectContaining({ pointer: "/locale", in: "query", code: "in" })]);
  });
});

describe("pipeline", () => {
  it("answers unknown paths with a 404 problem and a request id", async () => {
    const res = await call(unknownPath, { path: "/nothing/here", params: { path: ["nothing", "here"] } });
    expect(res.status).toBe(404);
    expect(res.json?.code).toBe("not_found");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect((await call(unknownPost, { path: "/x", method: "POST", params: { path: ["x"] } })).status).toBe(404);
  });

  it("answers an unsupported method with 405, Allow and a request id", async () => {
    const res = await call(POST, { path: "/ping", method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });
});
