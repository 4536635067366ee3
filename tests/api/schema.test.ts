import { describe, expect, it } from "vitest";
import { withFrozenClock } from "../support/clock";
import { GET } from "@/app/api/v1/schema/route";
import { GET as openapi } from "@/app/api/v1/openapi.json/route";
import { call } from "../support/fixtures";

describe("GET /schema", () => {
  it("is public, carries an ETag and answers 304 to If-None-Match", async () => {
    const res = await call(GET, { path: "/schema", headers: { "x-forwarded-for": "10.1.0.1" } });
    expect(res.status).toBe(200);
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    expect(res.json!.currencies.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining(["EUR", "RON", "USD", "GBP"]));
    expect(res.json!.property_types.map((t: { code: string }) => t.code)).toEqual(
      expect.arrayContaining(["apartment", "house", "land", "commercial", "office", "industrial", "development"]),
    );
    expect(res.json!.enumerations.rejection_code).toEqual(
      expect.arrayContaining([{ code: "misleading_price", labels: { ro: "Preț înșelător", en: "Misleading price" } }]),
    );
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    const again = await call(GET, { path: "/schema", headers: { "if-none-match": etag, "x-forwarded-for": "10.1.0.1" } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect((await call(GET, { path: "/schema", headers: { "if-none-match": '"old"', "x-forwarded-for": "10.1.0.1" } })).status).toBe(200);
  });

  it("limits an address to 60 requests a minute", () =>
    withFrozenClock(async () => {
      const headers = { "x-forwarded-for": "10.9.9.9" };
      for (let i = 0; i < 60; i++) expect((await call(GET, { path: "/schema", headers })).status).toBe(200);
      const refused = await call(GET, { path: "/schema", headers });
      expect(refused.status).toBe(429);
      expect(refused.json!.code).toBe("too_many_requests");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await call(GET, { path: "/schema", headers: { "x-forwarded-for": "10.9.9.10" } })).status).toBe(200);
    }));

  it("refuses an invalid locale with 422", async () => {
    const res = await call(GET, { path: "/schema?locale=xx" });
    expect(res.status).toBe(422);
  });
});

describe("GET /openapi.json", () => {
  it("documents every endpoint with the generated schemas", async () => {
    const res = await call(openapi, { path: "/openapi.json" });
    expect(res.status).toBe(200);
    expect(res.json!.openapi).toBe("3.1.0");
    expect(Object.keys(res.json!.paths)).toEqual(
      expect.arrayContaining([
        "/ping",
        "/schema",
        "/listings",
        "/listings/validate",
        "/listings/{code}",
        "/listings/{code}/pause",
        "/listings/{code}/resume",
        "/listings/{code}/sold",
        "/listings/ref/{ref}",
        "/account/listings",
        "/account/listings/{code}",
        "/account/listings/ref/{ref}",
        "/events",
        "/sandbox/listings/{code}/moderation",
      ]),
    );
    expect(res.json!.components.schemas).toHaveProperty("ListingWrite");
    expect(res.json!.components.schemas).toHaveProperty("Problem");
    expect(res.json!.paths["/listings/{code}"].patch.requestBody.content).toHaveProperty("application/merge-patch+json");
  });
});
