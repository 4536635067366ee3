import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { ownKey } from "./support";

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
