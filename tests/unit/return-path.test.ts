import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sitePath } from "@/lib/base/site-path";
import { returnPath } from "@/lib/adapters/portal/page-locale";
import { portalStart, safeReturnPath } from "@/lib/adapters/portal/return-path";

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
    // Spellings that resolve to `//evil.com` (the open redirect of issue 19).
    "/..//evil.com",
    "/.//evil.com",
    "/x/..//evil.com",
    "/%2e%2e//evil.com",
    "/%2E%2E//evil.com",
    "/.%2e//evil.com",
    "/x/%2e%2e/%2e%2e//evil.com",
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

const site = "https://site.example";

/** Pieces of the spellings an attacker tries: dot segments, slashes and backslashes (plain, encoded, look-alike), schemes, blanks. */
const pieces = [
  "/",
  "//",
  "\\",
  "\\\\",
  ".",
  "..",
  "%2e",
  "%2E",
  "%2e%2e",
  "%2f",
  "%2F",
  "%5c",
  "%5C",
  "%252f",
  "%00",
  "%09",
  "%0a",
  "\t",
  "\n",
  "\r",
  " ",
  "\u0000",
  "\u00a0",
  "\u2215",
  "\uff0f",
  "\u2044",
  "\ufe68",
  "\uff3c",
  "\u3002",
  "evil.com",
  "evil.com.",
  "account",
  "x",
  "@",
  ":",
  "?",
  "#",
  "&",
  "http:",
  "https:",
  "javascript:",
  "data:",
  "HTTPS://",
  "localhost",
  "[::1]",
];

const spellings = fc.oneof(
  fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => parts.join("")),
  fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => `/${parts.join("")}`),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }).map((text) => `/${text}`),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
);

/** What a browser given this as `Location` on the site would open: a page of the site, never another. */
function expectSameSite(result: string): void {
  expect(result.startsWith("/")).toBe(true);
  expect(result.startsWith("//")).toBe(false);
  expect(result.startsWith("/\\")).toBe(false);
  expect(result).not.toMatch(/[\u0000-\u001f\u007f]/);
  expect(new URL(result, site).origin).toBe(site);
}

describe("sitePath, the one function every return path goes through (property)", () => {
  it("answers only paths of this site, whatever it is given", () => {
    fc.assert(
      fc.property(spellings, (value) => {
        expectSameSite(sitePath(value, "/fallback"));
        expectSameSite(safeReturnPath(value));
        expectSameSite(returnPath(value));
      }),
      { numRuns: 5000 },
    );
  });

  it("keeps what it returns as it is: a second pass changes nothing", () => {
    fc.assert(
      fc.property(spellings, (value) => {
        const once = sitePath(value, "/fallback");
        expect(sitePath(once, "/other")).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });
});
