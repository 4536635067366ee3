import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { pageLocale } from "@/lib/base/i18n";
import { returnPath } from "@/lib/adapters/portal/page-locale";
import { allowsInlineStyles, pageSecurityHeaders } from "@/lib/adapters/portal/security-headers";
import { vercelBlobOrigin } from "@/lib/infra/storage/vercel-origin";
import { config as proxyConfig, proxy } from "@/proxy";

describe("the language of a page", () => {
  it("orders the locale cookie > Accept-Language > ro", () => {
    expect(pageLocale({ cookie: "en", acceptLanguage: "ro-RO,ro;q=0.9" })).toBe("en");
    expect(pageLocale({ cookie: "ro", acceptLanguage: "en-US,en;q=0.9" })).toBe("ro");
    expect(pageLocale({ cookie: null, acceptLanguage: "en-GB,ro;q=0.5" })).toBe("en");
    expect(pageLocale({ acceptLanguage: "de-DE,fr;q=0.8" })).toBe("ro");
    expect(pageLocale({})).toBe("ro");
  });

  it.each(["EN", "de", "", "en-US", "ro;", "__proto__"])("ignores a cookie that names no supported language (%j)", (cookie) => {
    expect(pageLocale({ cookie, acceptLanguage: "en" })).toBe("en");
    expect(pageLocale({ cookie })).toBe("ro");
  });
});

describe("where the language switcher returns", () => {
  it.each(["/", "/docs/api", "/listings/H9GGZ9HH?x=1#top", "/problems/not_found"])("returns to the path %j", (path) => {
    expect(returnPath(path)).toBe(path);
  });

  it.each([
    null,
    "",
    "https://evil.example/",
    "//evil.example/x",
    "/\\evil.example",
    "javascript:alert(1)",
    "docs/api",
    "/a\r\nSet-Cookie: x=1",
  ])("returns home instead of to %j", (value) => {
    expect(returnPath(value)).toBe("/");
  });
});

describe("the security headers of pages", () => {
  it("allow scripts by nonce only, and nothing inline or evaluated in production", () => {
    const headers = pageSecurityHeaders("abc123==", { development: false });
    const policy = headers["Content-Security-Policy"];
    expect(policy).toContain("script-src 'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(policy).toContain("style-src 'self' 'nonce-abc123=='");
    expect(policy).not.toMatch(/unsafe-(inline|eval)/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(headers).toMatchObject({
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    });
    expect(pageSecurityHeaders("n", { development: true })["Content-Security-Policy"]).toContain("'unsafe-eval'");
  });

  it("allow inline styles on the API reference's path alone, never inline or evaluated scripts", async () => {
    const reference = pageSecurityHeaders("abc123==", { development: false, inlineStyles: true })["Content-Security-Policy"];
    expect(reference).toContain("style-src 'self' 'unsafe-inline';");
    // A nonce beside 'unsafe-inline' would make browsers ignore it.
    expect(reference.match(/style-src [^;]*/)![0]).not.toContain("nonce");
    expect(reference).toContain("script-src 'self' 'nonce-abc123==' 'strict-dynamic';");
    expect(reference.match(/script-src [^;]*/)![0]).not.toMatch(/unsafe/);
    expect(allowsInlineStyles("/docs/api")).toBe(true);
    expect(allowsInlineStyles("/docs/api/")).toBe(true);
    for (const other of ["/", "/docs", "/docs/api/other", "/docs/apix", "/listings", "/settings/api/keys"])
      expect(allowsInlineStyles(other), other).toBe(false);
    const policyOf = async (path: string) =>
      (await proxy(new NextRequest(`http://localhost:3000${path}`))).headers.get("content-security-policy")!;
    expect(await policyOf("/docs/api")).toContain("style-src 'self' 'unsafe-inline'");
    expect(await policyOf("/docs/api?tab=1")).toContain("style-src 'self' 'unsafe-inline'");
    expect(await policyOf("/listings")).toMatch(/style-src 'self' 'nonce-[^']+';/);
  });

  it("allow images from this origin only, and from the photo store's origin when photos are kept in Vercel Blob", () => {
    const imagesOf = (photoOrigin?: string) =>
      pageSecurityHeaders("n", { development: false, photoOrigin })["Content-Security-Policy"].match(/img-src [^;]*/)![0];
    expect(imagesOf()).toBe("img-src 'self' data: blob:");
    const origin = vercelBlobOrigin("vercel_blob_rw_AbC123_secret");
    expect(origin).toBe("https://abc123.public.blob.vercel-storage.com");
    expect(imagesOf(origin)).toBe("img-src 'self' data: blob: https://abc123.public.blob.vercel-storage.com");
    expect(() => vercelBlobOrigin("not a token")).toThrow(/vercel_blob_rw_/);
  });

  it("are set by the proxy on the response, and on the request where Next.js reads the nonce", async () => {
    const first = await proxy(new NextRequest("http://localhost:3000/docs/api"));
    const second = await proxy(new NextRequest("http://localhost:3000/docs/api"));
    const policy = first.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    // NextResponse.next({ request: { headers } }) passes overridden request headers this way.
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
  });

  it("run for pages and not for the API, the framework's files or prefetches", () => {
    const runs = (url: string, headers: Record<string, string> = {}) => unstable_doesMiddlewareMatch({ config: proxyConfig, url, headers });
    for (const page of ["/", "/docs/api", "/listings/H9GGZ9HH", "/problems/not_found", "/no-such-page", "/api"])
      expect(runs(page), page).toBe(true);
    for (const other of [
      "/api/v1/ping",
      "/api/v1/listings/ABC",
      "/api/health",
      "/api/inngest",
      "/_next/static/chunks/app.js",
      "/favicon.ico",
    ])
      expect(runs(other), other).toBe(false);
    expect(runs("/docs/api", { "next-router-prefetch": "1" })).toBe(false);
    expect(runs("/docs/api", { purpose: "prefetch" })).toBe(false);
  });
});
