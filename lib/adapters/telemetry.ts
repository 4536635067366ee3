import { metrics, type Context, type Attributes, type SpanKind } from "@opentelemetry/api";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  SamplingDecision,
  type Sampler,
  type SamplingResult,
} from "@opentelemetry/sdk-trace-node";
import { database, databaseOpened } from "@/db";
import { config } from "@/lib/base/config";
import { instrumentationName } from "@/lib/base/tracing";
import { logger } from "@/lib/base/logger";
import { countDueJobs } from "@/lib/infra/jobs/store";
import { countDueDeliveries } from "@/lib/domain/webhooks/deliver";

/**
 * The OpenTelemetry SDK, loaded by instrumentation.ts only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set
 * (a dynamic import: with it unset none of this is loaded and the API stays a no-op). Spans and
 * metrics go over OTLP/HTTP with JSON bodies to that endpoint, which the exporters read themselves
 * (with the other `OTEL_EXPORTER_OTLP_*` variables: headers, timeout).
 *
 * Health checks are left out: a probe every few seconds would bury the requests that matter. So are
 * Next.js's internal steps of a request (`SkipNextInternals`): its request span and its route
 * handler's span stay, and under them ours.
 */

interface Telemetry {
  tracerProvider: NodeTracerProvider;
  meterProvider: MeterProvider;
}

const holder = globalThis as typeof globalThis & { __listingsTelemetry?: Telemetry };

/** Registers the SDK once per process; `metricIntervalMs` is how often metrics are read and sent (a minute). */
export function startTelemetry(options: { metricIntervalMs?: number } = {}): void {
  if (holder.__listingsTelemetry) return;
  const resource = defaultResource().merge(resourceFromAttributes({ "service.name": config().OTEL_SERVICE_NAME }));
  const tracerProvider = new NodeTracerProvider({
    resource,
    sampler: new ParentBasedSampler({ root: new SkipHealthChecks(), localParentSampled: skipNextInternals }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The async-hooks context (a span's children find it across awaits) and W3C trace-context headers.
  tracerProvider.register();
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: options.metricIntervalMs ?? 60_000 }),
    ],
  });
  metrics.setGlobalMeterProvider(meterProvider);
  observeBacklogs();
  holder.__listingsTelemetry = { tracerProvider, meterProvider };
  logger.info("OpenTelemetry on", { endpoint: config().OTEL_EXPORTER_OTLP_ENDPOINT, service: config().OTEL_SERVICE_NAME });
}

/** Sends what is recorded so far (tests read it from their receiver afterwards). */
export async function flushTelemetry(): Promise<void> {
  const telemetry = holder.__listingsTelemetry;
  await Promise.all([telemetry?.tracerProvider.forceFlush(), telemetry?.meterProvider.forceFlush()]);
}

/**
 * The work waiting, read only when the metrics are collected: due jobs and due webhook deliveries.
 * Nothing is observed before the server has opened its database.
 */
function observeBacklogs(): void {
  const meter = metrics.getMeter(instrumentationName);
  const observe = (name: string, description: string, count: (now: Date) => Promise<number>) =>
    meter.createObservableGauge(name, { description, unit: "{item}" }).addCallback(async (result) => {
      if (!databaseOpened()) return;
      try {
        result.observe(await count(new Date()));
      } catch (error) {
        logger.warn("backlog metric not read", { metric: name, error });
      }
    });
  observe("jobs.backlog", "Jobs due and not yet claimed", async (now) => countDueJobs((await database()).connection, now));
  observe("webhooks.backlog", "Webhook deliveries due to active webhooks", async (now) =>
    countDueDeliveries((await database()).connection, now),
  );
}

/**
 * Drops the traces of health checks (Next.js's request span carries the path as `http.target`), and
 * Next.js's internal spans that start a trace of their own (loading a route's module at first use).
 */
class SkipHealthChecks implements Sampler {
  shouldSample(context: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes): SamplingResult {
    const path = String(attributes["http.target"] ?? attributes["url.path"] ?? "");
    const health = path === "/api/health" || path.startsWith("/api/health?") || path.startsWith("/api/health/");
    if (health) return { decision: SamplingDecision.NOT_RECORD };
    return skipNextInternals.shouldSample(context, traceId, name, kind, attributes);
  }

  toString(): string {
    return "SkipHealthChecks";
  }
}

/**
 * Next.js's own spans of the steps around a route handler (finding the route's components, preparing
 * its module, starting the response) and of loading modules: leaves of a request's trace that tell an
 * operator nothing to act on, and 3 of the 10 spans of a PATCH. A route handler runs under Next.js's
 * "executing api route" span, which stays, so none of ours is lost with them.
 */
const nextInternalSpans = new Set([
  "NextNodeServer.findPageComponents",
  "RouteModule.prepare",
  "NextNodeServer.startResponse",
  "LoadComponents.loadRouteModule",
  "AppRouteRouteModule.loadUserland",
]);

class SkipNextInternals implements Sampler {
  shouldSample(_context: Context, _traceId: string, _name: string, _kind: SpanKind, attributes: Attributes): SamplingResult {
    const internal = nextInternalSpans.has(String(attributes["next.span_type"] ?? ""));
    return { decision: internal ? SamplingDecision.NOT_RECORD : SamplingDecision.RECORD_AND_SAMPLED };
  }

  toString(): string {
    return "SkipNextInternals";
  }
}

const skipNextInternals = new SkipNextInternals();
