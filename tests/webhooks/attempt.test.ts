import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { attemptDelivery } from "@/lib/domain/webhooks/delivery";
import { newWebhookSecret } from "@/lib/domain/webhooks/signature";
import { closedPort, startHttpServer, type LocalServer, type ReceivedRequest } from "../support/local-http-server";
import { restoreEnv, setEnv } from "../support/env";

const secret = newWebhookSecret();
const event = {
  id: "evt_0001",
  body: JSON.stringify({ id: "evt_0001", type: "listing.published", created_at: "2026-11-25T12:00:00Z", data: { code: "AB12CD" } }),
};

const servers: LocalServer[] = [];
async function receiver(answer: (request: ReceivedRequest) => { status: number; body?: string; headers?: Record<string, string> }) {
  const server = await startHttpServer((request, res) => {
    const { status, body = "", headers = {} } = answer(request);
    res.writeHead(status, headers).end(body);
  });
  servers.push(server);
  return server;
}

/** What a receiver does with the standardwebhooks library: 204 when the signature holds, else 400. */
function verifying(request: ReceivedRequest) {
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return { status: 204 };
  } catch {
    return { status: 400, body: "bad signature" };
  }
}

beforeEach(() => {
  setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
});
afterEach(async () => {
  restoreEnv();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("attemptDelivery", () => {
  it("posts the event signed as Standard Webhooks receivers verify it", async () => {
    const server = await receiver(verifying);
    const now = new Date();
    const result = await attemptDelivery({ url: `${server.origin}/hooks`, secret, event, now });

    expect(result).toMatchObject({ ok: true, status: 204, error: null, responseExcerpt: "" });
    const [request] = server.received;
    expect(request.body).toBe(event.body);
    expect(request.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Service-Webhooks/1",
      "webhook-id": event.id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    });
    expect(result.request.headers).toMatchObject({ "webhook-id": event.id, "webhook-signature": request.headers["webhook-signature"] });
  });

  it("signs each attempt with its own timestamp, under the same event id", async () => {
    const server = await receiver(verifying);
    const first = new Date();
    const second = new Date(first.getTime() + 30_000);
    await attemptDelivery({ url: server.origin, secret, event, now: first });
    await attemptDelivery({ url: server.origin, secret, event, now: second });

    const [a, b] = server.received;
    expect([a.headers["webhook-id"], b.headers["webhook-id"]]).toEqual([event.id, event.id]);
    expect(Number(b.headers["webhook-timestamp"]) - Number(a.headers["webhook-timestamp"])).toBe(30);
    expect(a.headers["webhook-signature"]).not.toBe(b.headers["webhook-signature"]);
  });

  it("a receiver refusing the signature made with another secret: a failure with its status and answer", async () => {
    const server = await receiver(verifying);
    const result = await attemptDelivery({ url: server.origin, secret: newWebhookSecret(), event, now: new Date() });
    expect(result).toMatchObject({ ok: false, status: 400, error: "status_not_2xx", responseExcerpt: "bad signature" });
  });

  it("a 5xx is a failure", async () => {
    const server = await receiver(() => ({ status: 500, body: "oops" }));
    expect(await attemptDelivery({ url: server.origin, secret, event, now: new Date() })).toMatchObject({
      ok: false,
      status: 500,
      error: "status_not_2xx",
      responseExcerpt: "oops",
    });
  });

  it("a redirect is a failure and is not followed", async () => {
    const server = await receiver((request) =>
      request.url === "/moved" ? { status: 200 } : { status: 301, headers: { location: "/moved" } },
    );
    const result = await attemptDelivery({ url: `${server.origin}/old`, secret, event, now: new Date() });
    expect(result).toMatchObject({ ok: false, status: 301, error: "redirect_not_followed" });
    expect(server.received.map((r) => r.url)).toEqual(["/old"]);
  });

  it("a receiver that does not answer in time is a failure without status", async () => {
    const silent = await startHttpServer(() => {});
    servers.push(silent);
    const result = await attemptDelivery({ url: silent.origin, secret, event, now: new Date(), timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, status: null, error: "timeout", responseExcerpt: null });
  });

  it("a refused connection is a failure", async () => {
    const result = await attemptDelivery({ url: `http://127.0.0.1:${await closedPort()}/`, secret, event, now: new Date() });
    expect(result).toMatchObject({ ok: false, status: null, error: "connection_failed" });
  });

  it("checks the address on every attempt: a private address is refused without a request", async () => {
    const result = await attemptDelivery({ url: "http://169.254.169.254/latest/meta-data/", secret, event, now: new Date() });
    expect(result).toMatchObject({ ok: false, status: null, error: "refused_address" });
  });

  it("without UNSAFE_ALLOW_LOCAL_URLS a local receiver is refused", async () => {
    setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "0" });
    const server = await receiver(verifying);
    const viaName = await attemptDelivery({ url: `https://localhost:${server.port}/`, secret, event, now: new Date() });
    expect(viaName).toMatchObject({ ok: false, error: "refused_address" });
    const viaHttp = await attemptDelivery({ url: server.origin, secret, event, now: new Date() });
    expect(viaHttp).toMatchObject({ ok: false, error: "refused_url" });
    expect(server.received).toEqual([]);
  });
});
