import { describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/v1/events/route";
import { accountWithKey, call } from "../support/fixtures";

describe("GET /events – refused queries", () => {
  it.each([
    ["0", "min"],
    ["501", "max"],
    ["1.5", "integer"],
    ["ten", "numeric"],
    ["", "min"],
  ])("refuses limit=%j with 422 %s at /limit in the query", async (limit, code) => {
    const { key } = await accountWithKey();
    const res = await call(GET, { path: `/events?limit=${limit}`, key });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.json?.errors).toEqual([expect.objectContaining({ in: "query", pointer: "/limit", code })]);
  });

  it.each([
    ["0", "min"],
    ["31", "max"],
    ["1.5", "integer"],
    ["ten", "numeric"],
    ["", "min"],
  ])("refuses wait=%j with 422 %s at /wait in the query", async (wait, code) => {
    const { key } = await accountWithKey();
    const res = await call(GET, { path: `/events?wait=${wait}`, key });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.json?.errors).toEqual([expect.objectContaining({ in: "query", pointer: "/wait", code })]);
  });

  it.each(["", "evt_", "evt_ABCDEFGHIJ", "evt_0000000001x", "lst_0000000001", "1", "evt_00000-0001"])(
    "refuses after=%j with 422 at /after in the query",
    async (after) => {
      const { key } = await accountWithKey();
      const res = await call(GET, { path: `/events?after=${encodeURIComponent(after)}`, key });
      expect(res.status).toBe(422);
      expect(res.json?.errors).toEqual([expect.objectContaining({ in: "query", pointer: "/after", code: "regex" })]);
    },
  );

  it("reports a bad after and a bad limit together", async () => {
    const { key } = await accountWithKey();
    const res = await call(GET, { path: "/events?after=nope&limit=0", key });
    expect(res.json?.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(["/after", "/limit"]);
  });

  it("answers 405 with Allow: GET to other methods", async () => {
    const res = await call(POST, { path: "/events", method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});
