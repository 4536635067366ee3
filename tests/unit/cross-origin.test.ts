import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { logger } from "@/lib/base/logger";
import { proxy } from "@/proxy";

/**
 * A portal form post replayed from another site (a server action with a foreign Origin, or
 * `Origin: null`) is refused by the proxy with a 403 page in the visitor's language, before Next.js
 * would answer it with a 500; a post from the site itself goes on to the page.
 */
const post = (path: string, headers: Record<string, string>) =>
  proxy(
    new NextRequest(`http://localhost:3000${path}`, {
      method: "POST",
      headers: { host: "localhost:3000", "next-action": "7f00aa", "content-type": "text/plain;charset=UTF-8", ...headers },
      body: "[]",
    }),
  );

describe("a cross-origin form post to a page", () => {
  it.each([
    ["a foreign origin", { origin: "https://evil.example" }],
    ["Origin: null", { origin: "null" }],
    ["another port of the host", { origin: "http://localhost:4000" }],
    ["a forwarded host it does not match", { origin: "http://localhost:3000", "x-forwarded-host": "listings.example" }],
    ["an origin that is no URL", { origin: "evil" }],
  ])("is a 403 page, never a 5xx: %s", async (_, headers) => {
    const warn = vi.spyOn(logger, "warn");
    const error = vi.spyOn(logger, "error");
    const response = await post("/settings/api/keys", { ...headers, "accept-language": "en-US,en;q=0.9" });
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await response.text();
    const t = pageMessages("en").crossOrigin;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain(`<h1>${t.title}</h1>`);
    expect(warn).toHaveBeenCalledWith("cross-origin form post refused (403)", expect.objectContaining({ path: "/settings/api/keys" }));
    expect(error).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });

  it("speaks the visitor's language: the locale cookie, else Accept-Language, else Romanian", async () => {
    const ro = pageMessages("ro").crossOrigin.title;
    const en = pageMessages("en").crossOrigin.title;
    const evil = { origin: "https://evil.example" };
    expect(await (await post("/", { ...evil, cookie: "locale=ro", "accept-language": "en" })).text()).toContain(ro);
    expect(await (await post("/", { ...evil, cookie: "locale=en" })).text()).toContain(en);
    expect(await (await post("/", evil)).text()).toContain(
      `<html lang="ro"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${ro}`,
    );
  });

  it("lets a post from the site itself, or one through a proxy that forwards the host, go on to the page", async () => {
    const cases: Record<string, string>[] = [
      { origin: "http://localhost:3000" },
      { origin: "https://listings.example", "x-forwarded-host": "listings.example" },
      // No Origin: no browser posts across sites without one (Next.js lets it through too).
      {},
    ];
    for (const headers of cases) {
      const response = await post("/settings/api/keys", headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(response.headers.get("x-middleware-next")).toBe("1");
    }
  });

  it("leaves reads alone, whatever their Origin", async () => {
    const response = await proxy(new NextRequest("http://localhost:3000/listings", { headers: { origin: "https://evil.example" } }));
    expect(response.status).toBe(200);
  });
});
