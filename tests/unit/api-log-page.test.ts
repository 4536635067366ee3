import { portalDateTime } from "@/lib/adapters/portal/dates";
import { describe, expect, it } from "vitest";
import { apiLogEntryHref, apiLogHref, hasFilters, parseApiLogQuery, prettyBody, statusTone } from "@/lib/adapters/portal/api-log-page";
import { encodeKeyset } from "@/lib/base/cursor";

const keys = ["key-1", "key-2"];

describe("parseApiLogQuery", () => {
  it("reads every filter and the cursor", () => {
    const cursor = encodeKeyset({ at: "2026-11-25T10:00:00.123456Z", id: 42 });
    expect(parseApiLogQuery({ status: "4xx", key: "key-2", path: "/api/v1/listings", cursor }, keys)).toEqual({
      filters: { status: "4xx", keyId: "key-2", path: "/api/v1/listings" },
      cursor,
      ignored: [],
    });
  });

  it("treats absent and empty parameters (an unfilled GET form) as no filter", () => {
    expect(parseApiLogQuery({}, keys)).toEqual({ filters: {}, ignored: [] });
    expect(parseApiLogQuery({ status: "", key: "", path: "  ", cursor: "" }, keys)).toEqual({ filters: {}, ignored: [] });
  });

  it("leaves out values it cannot use and names them", () => {
    expect(
      parseApiLogQuery({ status: "9xx", key: "someone-elses-key", path: `/${"a".repeat(2048)}`, cursor: "not a cursor!" }, keys),
    ).toEqual({ filters: {}, ignored: ["status", "key", "path", "cursor"] });
    expect(parseApiLogQuery({ cursor: "a".repeat(501) }, keys).ignored).toEqual(["cursor"]);
  });

  it("keeps the usable filters beside an unusable one", () => {
    expect(parseApiLogQuery({ status: "2xx", key: "nope" }, keys)).toEqual({ filters: { status: "2xx" }, ignored: ["key"] });
  });

  it("takes the first of a repeated parameter, accepts a status class in capitals and trims", () => {
    expect(parseApiLogQuery({ status: ["5XX", "2xx"], path: " /api/v1/ping " }, keys).filters).toEqual({
      status: "5xx",
      path: "/api/v1/ping",
    });
  });

  it("starts a path without its leading slash at the root, as the log records paths", () => {
    expect(parseApiLogQuery({ path: "api/v1/listings" }, keys).filters.path).toBe("/api/v1/listings");
  });
});

describe("apiLogHref", () => {
  it("writes a readable shareable address in the form's order", () => {
    expect(apiLogHref({ status: "4xx", keyId: "key-1", path: "/api/v1/listings" }, "abc_-1")).toBe(
      "/settings/api/log?status=4xx&key=key-1&path=/api/v1/listings&cursor=abc_-1",
    );
  });

  it("is the bare page without filters, and escapes what a query must", () => {
    expect(apiLogHref({})).toBe("/settings/api/log");
    expect(apiLogHref({}, null)).toBe("/settings/api/log");
    expect(apiLogHref({ path: "/a b&c=d#e" })).toBe("/settings/api/log?path=/a+b%26c%3Dd%23e");
  });

  it("reads back to the same filters", () => {
    const filters = { status: "3xx", keyId: "key-1", path: "/api/v1/listings/ref/a&b" } as const;
    const search = new URLSearchParams(apiLogHref(filters, "xyz").split("?")[1]);
    expect(parseApiLogQuery(Object.fromEntries(search), keys)).toEqual({ filters, cursor: "xyz", ignored: [] });
  });

  it("links an entry by its id", () => {
    expect(apiLogEntryHref("123")).toBe("/settings/api/log/123");
  });
});

describe("the page's helpers", () => {
  it("knows whether any filter is set", () => {
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ path: "/api" })).toBe(true);
  });

  it("gives each status class its badge tone", () => {
    expect([200, 204, 304, 401, 422, 429, 500, 503].map(statusTone)).toEqual(["ok", "ok", "neutral", "warn", "warn", "warn", "bad", "bad"]);
  });

  it("shows times to the second in the page's language, in Romanian time with the zone", () => {
    const winter = new Date("2026-11-25T10:03:28.500Z");
    expect(portalDateTime("en", "second").format(winter)).toBe("25 Nov 2026, 12:03:28 EET");
    expect(portalDateTime("ro", "second").format(winter)).toBe("25 nov. 2026, 12:03:28 EET");
    expect(portalDateTime("en", "second").format(new Date("2026-07-01T00:00:05Z"))).toBe("1 Jul 2026, 03:00:05 EEST");
  });

  it("pretty-prints JSON bodies and keeps text bodies as they are", () => {
    expect(prettyBody(null)).toBeNull();
    expect(prettyBody(undefined)).toBeNull();
    expect(prettyBody({ a: 1, b: ["[redacted]"] })).toBe('{\n  "a": 1,\n  "b": [\n    "[redacted]"\n  ]\n}');
    expect(prettyBody("plain text")).toBe("plain text");
    expect(prettyBody(0)).toBe("0");
  });
});
