import { describe, expect, it } from "vitest";
import { withFrozenClock } from "../support/clock";
import { eq } from "drizzle-orm";
import { GET as list } from "@/app/api/v1/account/listings/route";
import { POST as create } from "@/app/api/v1/listings/route";
import { GET as ping } from "@/app/api/v1/ping/route";
import { database } from "@/db";
import { accounts } from "@/db/schema";
import { resetConfig } from "@/lib/base/config";
import { keyedEndpoint } from "@/lib/adapters/http/endpoint";
import { json } from "@/lib/adapters/http/respond";
import { accountWithKey, call } from "../support/fixtures";

describe("API pipeline", () => {
  it("answers 403 missing_ability when the key lacks the endpoint's permission", async () => {
    const mediaOnly = keyedEndpoint("media:write", async () => json({ ok: true }));
    const { key } = await accountWithKey({ permissions: ["listings:read"] });
    const res = await call(mediaOnly, { path: "/uploads", key });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ code: "missing_ability", status: 403 });
    expect(res.json?.detail).toContain("media:write");
  });

  it("turns an unknown error into an opaque 500 carrying only the request id", async () => {
    const failing = keyedEndpoint(null, async () => {
      throw new Error("connection string postgres://secret@db leaked?");
    });
    const { key } = await accountWithKey();
    const res = await call(failing, { path: "/failing", key });
    expect(res.status).toBe(500);
    expect(res.json?.code).toBe("internal_error");
    expect(res.text).not.toContain("secret");
    expect(res.json?.request_id).toBe(res.headers.get("x-request-id"));
    expect(res.json?.detail).toContain(res.headers.get("x-request-id"));
  });

  it("refuses the 301st request of a key within a minute with 429 and Retry-After, and counts it", async () => {
    const { key } = await accountWithKey();
    await withFrozenClock(async () => {
      for (let i = 1; i <= 300; i++) {
        const res = await call(ping, { path: "/ping", key });
        expect(res.status).toBe(200);
        expect(res.headers.get("x-ratelimit-remaining")).toBe(String(300 - i));
      }
      const refused = await call(ping, { path: "/ping?locale=en", key });
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({ code: "too_many_requests", title: "Too many requests" });
      expect(refused.headers.get("x-ratelimit-limit")).toBe("300");
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get("x-request-id")).toMatch(/^req_/);
      // Another key of the same account has its own budget: the limit is per key.
      const other = await accountWithKey();
      expect((await call(ping, { path: "/ping", key: other.key })).status).toBe(200);
    });
  });

  it("adds Deprecation and Sunset to every response once the version is being withdrawn", async () => {
    process.env.API_V1_DEPRECATED_AT = "2027-01-01T00:00:00Z";
    process.env.API_V1_SUNSET_AT = "2027-07-01T00:00:00Z";
    resetConfig();
    try {
      const res = await call(ping, { path: "/ping" });
      expect(res.status).toBe(401);
      expect(res.headers.get("deprecation")).toBe(`@${Date.parse("2027-01-01T00:00:00Z") / 1000}`);
      expect(res.headers.get("sunset")).toBe("Thu, 01 Jul 2027 00:00:00 GMT");
    } finally {
      delete process.env.API_V1_DEPRECATED_AT;
      delete process.env.API_V1_SUNSET_AT;
      resetConfig();
    }
    expect((await call(ping, { path: "/ping" })).headers.get("deprecation")).toBeNull();
  });
});

describe("forbidden", () => {
  it("refuses writes of an account whose e-mail awaits confirmation with 403 forbidden, reads still work", async () => {
    const { key, account } = await accountWithKey();
    const { connection: db } = await database();
    await db.update(accounts).set({ confirmed: false }).where(eq(accounts.id, account.id));
    const write = await call(create, { path: "/listings", method: "POST", key, body: {} });
    expect(write.status).toBe(403);
    expect(write.json?.code).toBe("forbidden");
    expect((await call(list, { path: "/account/listings", key })).status).toBe(200);
  });
});
