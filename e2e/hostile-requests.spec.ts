import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { newHolder, ownKey, signInWithoutBrowser } from "./support";

// What the production server answers to requests the framework alone would answer with a bare 500.

test("a path segment that is not percent-encoded UTF-8 is a 400 problem with a request id", async ({ request }) => {
  for (const segment of ["ABC%ZZ", "%", "%C0%AF", "%FF", "%ED%A0%80"]) {
    const res = await request.get(`/api/v1/account/listings/${segment}`);
    expect(res.status(), segment).toBe(400);
    expect(res.headers()["content-type"]).toBe("application/problem+json");
    expect(res.headers()["x-request-id"]).toMatch(/^req_/);
    expect((await res.json()).code).toBe("malformed_path");
  }
});

test("TRACE is a 405 problem with Allow and a request id", async ({ baseURL }) => {
  const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = httpRequest(new URL("/api/v1/ping", baseURL), { method: "TRACE" }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject).end();
  });
  expect(answer.status).toBe(405);
  expect(answer.headers.allow).toBe("GET, POST, PUT, PATCH, DELETE");
  expect(answer.headers["x-request-id"]).toMatch(/^req_/);
  expect(JSON.parse(answer.body).code).toBe("method_not_allowed");
});

test("a body nested 10 000 levels deep or not UTF-8 is refused with 400 and creates nothing", async ({ request }) => {
  const headers = { authorization: `Bearer ${await ownKey()}`, "content-type": "application/json" };
  const ref = `hostile-${Date.now()}`;
  const valid = JSON.stringify({ ...exampleApartment, external_ref: ref });
  const deep = `${valid.slice(0, -1)},"extra":${"[".repeat(10_000)}1${"]".repeat(10_000)}}`;
  const nested = await request.post("/api/v1/listings", { headers, data: deep });
  expect(nested.status()).toBe(400);
  expect((await nested.json()).code).toBe("nesting_too_deep");
  // Valid UTF-8 everywhere but two bytes in the title that no UTF-8 text holds.
  const [before, after] = [valid.slice(0, valid.indexOf("Apartament")), valid.slice(valid.indexOf("Apartament"))];
  const bytes = Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe]), Buffer.from(after)]);
  const encoded = await request.post("/api/v1/listings", { headers, data: bytes });
  expect(encoded.status()).toBe(400);
  expect((await encoded.json()).code).toBe("invalid_encoding");
  const found = await request.get(`/api/v1/account/listings/ref/${ref}`, { headers });
  expect(found.status()).toBe(404);
});

test("a signed-in visitor sent to /login with a crafted next lands on a page of the portal, never another site", async ({
  request,
  baseURL,
}) => {
  // Signed in through the sign-in form, without a browser: what is tested is the server's redirect.
  const headers = await signInWithoutBrowser(request, await newHolder());
  const site = new URL(baseURL!).origin;
  // The report's spellings, then others of the kind: each either a path of this site as written or the portal's start.
  const spellings = [
    "/..//evil.com",
    "/.//evil.com",
    "/x/..//evil.com",
    "/%2e%2e//evil.com",
    "//evil.com",
    "/\\evil.com",
    "/\t/evil.com",
    "https://evil.com/",
    "/%2F%2Fevil.com",
    "/\u2215\u2215evil.com",
    "/\uff0f\uff0fevil.com",
  ];
  for (const next of spellings) {
    const answer = await request.get(`/login?next=${encodeURIComponent(next)}`, { headers, maxRedirects: 0 });
    expect(answer.status(), next).toBe(307);
    const location = answer.headers().location;
    expect(location, next).toMatch(/^\/(?![/\\])/);
    expect(new URL(location, site).origin, next).toBe(site);
    // Followed: this site (a path with encoded slashes in it is this site's not-found page).
    const landed = await request.get(`/login?next=${encodeURIComponent(next)}`, { headers });
    expect(new URL(landed.url()).origin, next).toBe(site);
    expect(landed.status(), next).toBeLessThan(500);
  }
  for (const next of spellings.slice(0, 4)) {
    const landed = await request.get(`/login?next=${encodeURIComponent(next)}`, { headers });
    expect(new URL(landed.url()).pathname, next).toBe("/settings/api/keys");
    expect(landed.status(), next).toBe(200);
  }
});

test("a portal form post replayed from another site is a 403 page in the visitor's language, and does nothing", async ({
  request,
  baseURL,
}) => {
  // The language switcher's server action, as its form (without JavaScript) posts it.
  const home = await (await request.get("/")).text();
  const actionField = home.match(/name="(\$ACTION_ID_[0-9a-f]+)"/)?.[1];
  expect(actionField, "the switcher's action field").toBeDefined();
  const post = (headers: Record<string, string>) =>
    request.post("/", { headers, multipart: { [actionField!]: "", locale: "en", return: "/" }, maxRedirects: 0 });

  for (const [origin, locale] of [
    ["https://evil.example", "en"],
    ["null", "ro"],
  ] as const) {
    const refused = await post({ origin, "accept-language": locale });
    expect(refused.status(), origin).toBe(403);
    expect(refused.headers()["content-type"]).toBe("text/html; charset=utf-8");
    expect(refused.headers()["set-cookie"], "no language remembered").toBeUndefined();
    const html = await refused.text();
    expect(html).toContain(`<html lang="${locale}">`);
    expect(html).toContain(pageMessages(locale).crossOrigin.title);
  }
  // The same post from the site itself does what the switcher does.
  const own = await post({ origin: new URL(baseURL!).origin });
  expect(own.status()).toBeLessThan(400);
  expect(own.headers()["set-cookie"]).toContain("locale=en");
});
