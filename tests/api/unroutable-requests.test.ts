import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refuseForbiddenMethods } from "@/lib/adapters/http/forbidden-methods";
import { config as proxyConfig, proxy } from "@/proxy";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { loggedRow } from "@/tests/support/api-log-rows";

const logRow = loggedRow;

describe("paths Next.js cannot decode", () => {
  const malformed = ["ABC%ZZ", "%", "%C0%AF", "%FF", "%ED%A0%80"];

  it.each(malformed)("answers /account/listings/%s with 400 malformed_path, a request id and an API log row", async (segment) => {
    const response = await proxy(
      new NextRequest(`http://localhost:3000/api/v1/account/listings/${segment}`, { headers: { "accept-language": "en" } }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const body = await response.json();
    expect(body).toMatchObject({ code: "malformed_path", title: "Malformed path" });
    const row = await logRow(response.headers.get("x-request-id")!);
    expect(row).toMatchObject({ method: "GET", path: `/api/v1/account/listings/${segment}`, status: 400 });
  });

  it("lets well-formed paths with percent-encoding through to their route", async () => {
    const response = await proxy(new NextRequest("http://localhost:3000/api/v1/account/listings/ref/A%2FB%C3%A9"));
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });

  it("runs on API paths only when they hold a %, so other API requests never pay for it (pages get their headers there)", () => {
    const runs = (url: string) => unstable_doesMiddlewareMatch({ config: proxyConfig, url });
    expect(runs("/api/v1/account/listings/ABC%ZZ")).toBe(true);
    expect(runs("/api/v1/account/listings")).toBe(false);
    expect(runs("/api/v1/ping")).toBe(false);
    expect(runs("/api/health")).toBe(false);
  });
});

describe("methods no Request can carry", () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    refuseForbiddenMethods();
    // Stands for Next.js: it fails on TRACE, so reaching it would be a 500.
    server = http.createServer((_request, response) => response.writeHead(500).end("framework"));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const trace = (path: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const request = http.request({ port, path, method: "TRACE", headers: { "accept-language": "en" } }, (response) => {
        let body = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      });
      request.on("error", reject).end();
    });

  it("answers TRACE under /api/v1 with the API's 405 problem, Allow, a request id and an API log row", async () => {
    const response = await trace("/api/v1/ping");
    expect(response.status).toBe(405);
    expect(response.headers["content-type"]).toBe("application/problem+json");
    expect(response.headers.allow).toBe("GET, POST, PUT, PATCH, DELETE");
    expect(response.headers["x-ratelimit-limit"]).toBe("300");
    expect(JSON.parse(response.body)).toMatchObject({ code: "method_not_allowed", detail: expect.stringContaining("TRACE") });
    const row = await logRow(String(response.headers["x-request-id"]));
    expect(row).toMatchObject({ method: "TRACE", path: "/api/v1/ping", status: 405 });
  });

  it("answers TRACE elsewhere with a plain 405, and leaves other methods to the server", async () => {
    const portal = await trace("/");
    expect(portal.status).toBe(405);
    expect(portal.headers.allow).toBeDefined();
    const get = await fetch(`http://127.0.0.1:${port}/api/v1/ping`);
    expect(await get.text()).toBe("framework");
  });
});
