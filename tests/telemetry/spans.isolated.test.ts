import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PATCH } from "@/app/api/v1/listings/[code]/route";
import { flushTelemetry, startTelemetry } from "@/lib/adapters/telemetry";
import { resetConfig } from "@/lib/base/config";
import { logger } from "@/lib/base/logger";
import { traced } from "@/lib/base/tracing";
import { BaseServerSpan } from "next/dist/server/lib/trace/constants";
import { getTracer } from "next/dist/server/lib/trace/tracer";
import { accountWithKey, call } from "../support/fixtures";
import { createListing } from "../support/listings";
import { deliver, hookedAccount, localReceiver, withLocalReceivers } from "../webhooks/delivery-support";
import { record } from "../webhooks/support";
import { startOtlpReceiver, type ReceivedSpan } from "./otlp-receiver";
import { restoreEnv, setEnv } from "../support/env";

/**
 * The spans and metrics the server sends to a collector, read from a real local OTLP/HTTP receiver:
 * the SDK started as instrumentation.ts starts it with OTEL_EXPORTER_OTLP_ENDPOINT set, then a PATCH
 * through its route handler and a webhook delivery to a real receiver. A process of its own (the SDK
 * registers itself for the whole process).
 */

const collector = await startOtlpReceiver();
withLocalReceivers();

beforeAll(() => {
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.origin;
  resetConfig();
  startTelemetry({ metricIntervalMs: 3_600_000 });
});

afterAll(async () => {
  await collector.close();
});

const serverKind = 2;
const clientKind = 3;

/** The spans of one trace, and the chain of ancestors of each. */
function traceOf(spans: ReceivedSpan[], traceId: string) {
  const inTrace = spans.filter((span) => span.traceId === traceId);
  const byId = new Map(inTrace.map((span) => [span.spanId, span]));
  const ancestors = (span: ReceivedSpan): ReceivedSpan[] => {
    const parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
    return parent ? [parent, ...ancestors(parent)] : [];
  };
  return { spans: inTrace, ancestors };
}

describe("traces over OTLP", () => {
  it("a PATCH is one server span (route template, status, request id) with the operation's span and its queries beneath", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const title = "Apartament cu grădină, urmărit";
    const res = await call(PATCH, {
      path: `/listings/${listing.code}`,
      method: "PATCH",
      key,
      body: { title },
      params: { code: listing.code },
      headers: { "content-type": "application/merge-patch+json" },
    });
    expect(res.status).toBe(200);
    await flushTelemetry();

    const requestId = res.headers.get("x-request-id");
    const request = collector.spans().find((span) => span.attributes["request.id"] === requestId)!;
    expect(request).toMatchObject({
      name: "PATCH /api/v1/listings/{code}",
      kind: serverKind,
      attributes: { "http.route": "/api/v1/listings/{code}", "http.request.method": "PATCH", "http.response.status_code": 200 },
      resource: { "service.name": "listings-platform" },
    });
    expect(request.parentSpanId).toBeUndefined();

    const { spans, ancestors } = traceOf(collector.spans(), request.traceId);
    const operation = spans.find((span) => span.name === "editListing")!;
    expect(operation.parentSpanId).toBe(request.spanId);

    const queries = spans.filter((span) => span.attributes["db.system.name"] === "postgresql");
    expect(queries.length).toBeGreaterThan(2);
    for (const query of queries) {
      expect(query.kind).toBe(clientKind);
      expect(ancestors(query).at(-1)!.spanId).toBe(request.spanId);
      // The statement as sent, placeholders and no values.
      expect(String(query.attributes["db.query.text"])).not.toContain(title);
    }
    // The key's look-up runs before the operation, the listing's update within it.
    expect(queries.some((query) => query.parentSpanId === request.spanId)).toBe(true);
    const update = queries.find((query) => query.name === "UPDATE" && ancestors(query).includes(operation));
    expect(update?.attributes["db.query.text"]).toMatch(/^update "listings" set .*\$1/);
    // Long column lists are written as their count: a listing's 40 columns are not exported on every span.
    const lock = queries.find((query) => query.name === "SELECT" && ancestors(query).includes(operation));
    expect(lock?.attributes["db.query.text"]).toMatch(/^select …\d+ columns… from "listings" .* for update of "listings" nowait$/);
    expect(update?.attributes["db.query.text"]).toMatch(/ returning …\d+ columns…$/);
  });

  it("a refused request's span carries its status; the latency metric has the route, method and status", async () => {
    const res = await call(PATCH, { path: "/listings/NOPE", method: "PATCH", body: {}, params: { code: "NOPE" } });
    expect(res.status).toBe(401);
    await flushTelemetry();

    const request = collector.spans().find((span) => span.attributes["request.id"] === res.headers.get("x-request-id"))!;
    expect(request.attributes["http.response.status_code"]).toBe(401);
    const latency = collector.metrics().filter((metric) => metric.name === "http.server.request.duration");
    const points = latency.flatMap((metric) => metric.points.map((point) => point.attributes));
    expect(points).toContainEqual({
      "http.route": "/api/v1/listings/{code}",
      "http.request.method": "PATCH",
      "http.response.status_code": 401,
    });
    expect(points).toContainEqual({
      "http.route": "/api/v1/listings/{code}",
      "http.request.method": "PATCH",
      "http.response.status_code": 200,
    });
    // The backlogs are read when the metrics are collected.
    const names = collector.metrics().map((metric) => metric.name);
    expect(names).toEqual(expect.arrayContaining(["jobs.backlog", "webhooks.backlog"]));
    const backlog = collector.metrics().find((metric) => metric.name === "webhooks.backlog")!;
    expect(typeof backlog.points[0].value).toBe("number");
  });

  it("a webhook delivery is a client span per attempt: webhook, delivery, attempt, receiver's host and status", async () => {
    const server = await localReceiver(() => ({ status: 503 }));
    const { account, webhook } = await hookedAccount(server);
    const event = (await record(account.id))!;
    const [outcome] = await deliver(new Date());
    expect(outcome).toMatchObject({ status: "retrying", attempt: 1 });
    await flushTelemetry();

    const attempt = collector.spans().find((span) => span.name === "webhook.attempt" && span.attributes["webhook.id"] === webhook.id)!;
    expect(attempt).toMatchObject({
      kind: clientKind,
      attributes: {
        "webhook.delivery.id": outcome.id,
        "webhook.delivery.attempt": 1,
        "webhook.event.id": event.id,
        "server.address": `127.0.0.1:${server.port}`,
        "http.response.status_code": 503,
      },
      status: { code: 2 },
    });
    expect(JSON.stringify(attempt.attributes)).not.toContain(server.origin);
  });

  it("a JSON log line written within a span carries its trace and span ids", async () => {
    setEnv({ LOG_LEVEL: "info" });
    const lines: string[] = [];
    const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (lines.push(String(chunk)), true));
    try {
      const ids = await traced("probe", {}, async (span) => {
        logger.info("inside");
        return span.spanContext();
      });
      logger.info("outside");
      const [inside, outside] = lines.map((line) => JSON.parse(line));
      expect(inside).toMatchObject({ message: "inside", trace_id: ids.traceId, span_id: ids.spanId });
      expect(outside).not.toHaveProperty("trace_id");
    } finally {
      write.mockRestore();
      restoreEnv();
    }
  });
  it("Next.js records no spans of its own: outside the product's spans its tracer finds OpenTelemetry off", async () => {
    const nextTracer = getTracer();
    expect(nextTracer.isOpenTelemetryEnabled()).toBe(false);
    let called = 0;
    const answer = await nextTracer.trace(BaseServerSpan.handleRequest, async () => (called += 1));
    expect({ called, answer }).toEqual({ called: 1, answer: 1 });
    await flushTelemetry();
    expect(collector.spans().filter((span) => span.attributes["next.span_type"] !== undefined)).toEqual([]);
  });

  it("a request with a traceparent header continues the caller's trace", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpanId = "00f067aa0ba902b7";
    const res = await call(PATCH, {
      path: "/listings/NOPE",
      method: "PATCH",
      body: {},
      params: { code: "NOPE" },
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(res.status).toBe(401);
    await flushTelemetry();
    const request = collector.spans().find((span) => span.attributes["request.id"] === res.headers.get("x-request-id"))!;
    expect(request).toMatchObject({ traceId, parentSpanId: callerSpanId, kind: serverKind });
  });
});
