import { afterEach, describe, expect, it } from "vitest";
import { checkPublicUrl, type Resolver } from "@/lib/infra/net/public-address";
import { BodyTooLargeError, OutboundError, safeRequest, type SafeRequest } from "@/lib/infra/net/safe-request";
import { closedPort, startHttpServer, startRawServer, type LocalServer } from "../support/local-http-server";
import { useEnv } from "../support/env";

const servers: LocalServer[] = [];
async function server(start: Promise<LocalServer>): Promise<LocalServer> {
  servers.push(await start);
  return servers[servers.length - 1];
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A delivery's request: the start of any answer. */
const post = (url: string, more: Partial<SafeRequest> = {}) =>
  safeRequest({
    method: "POST",
    url,
    headers: { "content-type": "text/plain" },
    body: "hello",
    timeoutMs: 5_000,
    read: "excerpt",
    maxBytes: 2048,
    ...more,
  });

/** A download's request: a 2xx answer's whole body, after up to 3 redirects. */
const get = (url: string, more: Partial<SafeRequest> = {}) =>
  safeRequest({ method: "GET", url, timeoutMs: 5_000, read: "whole", maxBytes: 1024, maxRedirects: 3, ...more });

const text = (body: Buffer) => body.toString("utf8");

/** The OutboundError a request ends in. */
async function failure(request: Promise<unknown>): Promise<OutboundError> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

const toLoopback: Resolver = async () => ["127.0.0.1"];

describe("safeRequest without UNSAFE_ALLOW_LOCAL_URLS", () => {
  it("refuses a name that resolves to 127.0.0.1 before any request reaches it", async () => {
    const receiver = await server(startHttpServer((_, res) => res.end("ok")));
    const viaHosts = await failure(post(`http://localhost:${receiver.port}/`, { schemes: ["http"] }));
    expect(viaHosts).toMatchObject({ reason: "refused_address", refusal: "private_address" });
    const viaDns = await failure(post(`https://receiver.test:${receiver.port}/`, { resolve: toLoopback }));
    expect(viaDns).toMatchObject({ reason: "refused_address", refusal: "private_address" });
    expect(receiver.received).toEqual([]);
  });

  it("checks the addresses it connects to, not an earlier answer (DNS rebinding)", async () => {
    let calls = 0;
    const rebinding: Resolver = async () => (calls++ === 0 ? ["93.184.216.34"] : ["127.0.0.1"]);
    expect(await checkPublicUrl("https://rebinding.test/", { schemes: ["https"], resolve: rebinding })).toMatchObject({ ok: true });
    expect(await failure(post("https://rebinding.test/", { resolve: rebinding }))).toMatchObject({ reason: "refused_address" });
  });

  it("refuses when one of the answers is private", async () => {
    const mixed: Resolver = async () => ["93.184.216.34", "10.0.0.1"];
    expect(await failure(post("https://mixed.test/", { resolve: mixed }))).toMatchObject({ reason: "refused_address" });
  });

  it.each([
    ["http://127.0.0.1/", "refused_url", "scheme_not_allowed"],
    ["https://127.0.0.1/", "refused_address", "private_address"],
    ["https://2130706433/", "refused_address", "private_address"],
    ["https://[::ffff:127.0.0.1]/", "refused_address", "private_address"],
    ["https://user:pw@93.184.216.34/", "refused_url", "credentials_in_url"],
    ["nonsense", "refused_url", "not_a_url"],
  ])("%s: %s (%s)", async (url, reason, refusal) => {
    expect(await failure(post(url))).toMatchObject({ reason, refusal });
  });

  it("a name that does not resolve: dns_failed", async () => {
    const nowhere: Resolver = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    expect(await failure(post("https://nowhere.test/", { resolve: nowhere }))).toMatchObject({ reason: "dns_failed" });
  });
});

describe("safeRequest with UNSAFE_ALLOW_LOCAL_URLS=1, to real local servers", () => {
  useEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });

  it("posts the body and headers, and returns the status, headers and body", async () => {
    const receiver = await server(
      startHttpServer((_, res) => {
        res.setHeader("x-receiver", "yes");
        res.writeHead(201).end("created");
      }),
    );
    const response = await post(`${receiver.origin}/hooks?x=1`, { headers: { "content-type": "application/json" }, body: '{"a":"ă"}' });
    expect(response).toMatchObject({ status: 201, headers: { "x-receiver": "yes" } });
    expect(text(response.body)).toBe("created");
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
    expect(receiver.received).toEqual([
      expect.objectContaining({
        method: "POST",
        url: "/hooks?x=1",
        body: '{"a":"ă"}',
        headers: expect.objectContaining({ "content-type": "application/json", "content-length": String(Buffer.byteLength('{"a":"ă"}')) }),
      }),
    ]);
  });

  it("connects to the address it checked and keeps the name as Host", async () => {
    const receiver = await server(startHttpServer((_, res) => res.end("ok")));
    await post(`http://localhost:${receiver.port}/`, { resolve: toLoopback });
    expect(receiver.received[0].headers.host).toBe(`localhost:${receiver.port}`);
  });

  it("still refuses private addresses", async () => {
    expect(await failure(post("http://10.0.0.1/"))).toMatchObject({ reason: "refused_address" });
    const toPrivate: Resolver = async () => ["192.168.1.10"];
    expect(await failure(post("http://localhost/", { resolve: toPrivate }))).toMatchObject({ reason: "refused_address" });
  });

  it("keeps plain http to loopback alone: another host, named or literal, is refused before anything is sent", async () => {
    const receiver = await server(startHttpServer((_, res) => res.end("ok")));
    const refusedUrl = { reason: "refused_url", refusal: "scheme_not_allowed" };
    expect(await failure(post(`http://receiver.test:${receiver.port}/`, { resolve: toLoopback }))).toMatchObject(refusedUrl);
    expect(await failure(post("http://93.184.216.34/"))).toMatchObject(refusedUrl);
    // localhost answering a public address (a hosts file edited) is no loopback either.
    const toPublic: Resolver = async () => ["93.184.216.34"];
    expect(await failure(post("http://localhost/", { resolve: toPublic }))).toMatchObject({ reason: "refused_address" });
    expect(receiver.received).toEqual([]);
  });

  it("returns a redirect as it is, without following it", async () => {
    const receiver = await server(
      startHttpServer((request, res) => {
        if (request.url === "/start") res.writeHead(302, { location: "/elsewhere" }).end();
        else res.end("followed");
      }),
    );
    const response = await post(`${receiver.origin}/start`);
    expect(response).toMatchObject({ status: 302, headers: { location: "/elsewhere" } });
    expect(receiver.received.map((r) => r.url)).toEqual(["/start"]);
  });

  it("returns a 5xx as it is", async () => {
    const receiver = await server(startHttpServer((_, res) => res.writeHead(503).end("down")));
    const response = await post(receiver.origin);
    expect(response.status).toBe(503);
    expect(text(response.body)).toBe("down");
  });

  it("reads only the first bytes of a long answer, then drops the connection", async () => {
    let responseClosed: () => void = () => {};
    const closed = new Promise<void>((resolve) => (responseClosed = resolve));
    // An answer that never ends: the request returns only if it stops reading and hangs up.
    const receiver = await server(
      startHttpServer((_, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        const chunk = "x".repeat(16 * 1024);
        const timer = setInterval(() => res.write(chunk), 1);
        res.on("close", () => {
          clearInterval(timer);
          responseClosed();
        });
      }),
    );
    const response = await post(receiver.origin, { maxBytes: 2048, timeoutMs: 10_000 });
    expect(response.status).toBe(200);
    expect(text(response.body)).toBe("x".repeat(2048));
    await closed;
  });

  it("times out against a server that never answers", async () => {
    const silent = await server(startHttpServer(() => {}));
    const error = await failure(post(silent.origin, { timeoutMs: 200 }));
    expect(error.reason).toBe("timeout");
    expect(silent.received).toHaveLength(1);
  });

  it("times out when the answer starts but never ends", async () => {
    const trickle = await server(startHttpServer((_, res) => res.writeHead(200).write("partial")));
    expect(await failure(post(trickle.origin, { timeoutMs: 200 }))).toMatchObject({ reason: "timeout" });
  });

  it("a refused connection: connection_failed", async () => {
    const port = await closedPort();
    expect(await failure(post(`http://127.0.0.1:${port}/`))).toMatchObject({ reason: "connection_failed" });
  });

  it("https to a server that does not speak TLS: tls_failed", async () => {
    const plain = await server(startHttpServer((_, res) => res.end("ok")));
    expect(await failure(post(`https://127.0.0.1:${plain.port}/`))).toMatchObject({ reason: "tls_failed" });
  });

  it("an answer that is not HTTP: invalid_response", async () => {
    const garbage = await server(startRawServer((socket) => socket.once("data", () => socket.end("hello there\r\n\r\n"))));
    expect(await failure(post(garbage.origin))).toMatchObject({ reason: "invalid_response" });
  });

  it("a connection closed without an answer: connection_failed", async () => {
    const hangUp = await server(startRawServer((socket) => socket.once("data", () => socket.destroy())));
    expect(await failure(post(hangUp.origin))).toMatchObject({ reason: "connection_failed" });
  });

  it("follows redirects when asked, checking each target, and answers from the last", async () => {
    const files = await server(
      startHttpServer((request, res) => {
        if (request.url === "/one") res.writeHead(301, { location: "/two" }).end();
        else if (request.url === "/two") res.writeHead(302, { location: `http://localhost:${files.port}/photo` }).end();
        else res.end("bytes");
      }),
    );
    const response = await get(`${files.origin}/one`, { resolve: toLoopback });
    expect(response).toMatchObject({ status: 200, url: `http://localhost:${files.port}/photo` });
    expect(text(response.body)).toBe("bytes");
    expect(files.received.map((r) => [r.method, r.url])).toEqual([
      ["GET", "/one"],
      ["GET", "/two"],
      ["GET", "/photo"],
    ]);
  });

  it("refuses a redirect to an address that is not public before asking it", async () => {
    const files = await server(startHttpServer((_, res) => res.writeHead(302, { location: "http://10.0.0.1/photo" }).end()));
    expect(await failure(get(`${files.origin}/start`))).toMatchObject({ reason: "refused_address" });
  });

  it("answers the redirect past the last one it may follow, without asking its target", async () => {
    const loop = await server(startHttpServer((request, res) => res.writeHead(302, { location: `${request.url}x` }).end()));
    const response = await get(`${loop.origin}/a`, { maxRedirects: 2 });
    expect(response).toMatchObject({ status: 302, headers: { location: "/axxx" } });
    expect(loop.received.map((r) => r.url)).toEqual(["/a", "/ax", "/axx"]);
  });

  it("reads a whole body up to its cap, and refuses one declared or streamed past it", async () => {
    const files = await server(
      startHttpServer((request, res) => {
        if (request.url === "/fits") res.end("y".repeat(1024));
        else if (request.url === "/declared") res.writeHead(200, { "content-length": "1025" }).end("y".repeat(1025));
        else {
          // Chunked, no length said: refused while it is read.
          res.writeHead(200);
          res.write("y".repeat(1000));
          res.end("y".repeat(1000));
        }
      }),
    );
    expect((await get(`${files.origin}/fits`)).body).toHaveLength(1024);
    await expect(get(`${files.origin}/declared`)).rejects.toBeInstanceOf(BodyTooLargeError);
    await expect(get(`${files.origin}/streamed`)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it("answers a download's 404 without its body", async () => {
    const files = await server(startHttpServer((_, res) => res.writeHead(404).end("not here")));
    const response = await get(`${files.origin}/missing`);
    expect(response.status).toBe(404);
    expect(response.body).toHaveLength(0);
  });
});
