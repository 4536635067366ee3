import { describe, expect, it } from "vitest";
import { portalStart, safeReturnPath } from "@/lib/portal/return-path";

describe("safeReturnPath (where sign-in returns to)", () => {
  it.each([
    ["/account", "/account"],
    ["/oauth/authorize?client_id=svcc_1&state=a%20b", "/oauth/authorize?client_id=svcc_1&state=a%20b"],
    ["/settings/api/log?status=4xx#top", "/settings/api/log?status=4xx#top"],
    ["/a/../account", "/account"],
  ])("keeps a path on this site: %s", (given, kept) => {
    expect(safeReturnPath(given)).toBe(kept);
  });

  it.each([
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example/",
    "/\t/evil.example/",
    "/\n/evil.example/",
    "\\\\evil.example",
    "javascript:alert(1)",
    "account",
    "",
    `/${"a".repeat(2001)}`,
    undefined,
    ["/account"],
  ])("sends anything else to the portal's start: %j", (given) => {
    expect(safeReturnPath(given)).toBe(portalStart);
  });
});
