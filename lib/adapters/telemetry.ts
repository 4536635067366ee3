import { context, metrics, propagation } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { database, databaseOpened } from "@/db";
import { setTracerProvider } from "@/db/tracing";
import { config } from "@/lib/base/config";
import { instrumentationName } from "@/lib/base/tracing";
import { logger } from "@/lib/base/logger";
import { processSlot } from "@/lib/base/process-registry";
import { countDueJobs } from "@/lib/infra/jobs/store";
import { countDueDeliveries } from "@/lib/domain/webhooks/delivery";

/**
 * The OpenTelemetry SDK, loaded at boot (lib/adapters/boot.ts) only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set
 * (a dynamic import: with it unset none of this is loaded and the API stays a no-op). Spans and
 * metrics go over OTLP/HTTP with JSON bodies to that endpoint, which the exporters read themselves
 * (with the other `OTEL_EXPORTER_OTLP_*` variables: headers, timeout).
 *
 * The provider is not registered as the API's global one (`register()`), only handed to the product's
 * spans (`setTracerProvider`): Next.js records a dozen spans of its own per request as soon as a
 * global provider exists, which cost a third of tracing's CPU per PATCH and tell an operator nothing
 * the request's own span does not (docs/operations.md, Tracing and metrics). Health checks go through
 * no traced code, so they make no traces either.
 */

interface Telemetry {
  tracerProvider: NodeTracerProvider;
  meterProvider: MeterProvider;
}

const started = processSlot<Telemetry>("telemetry");

/** Registers the SDK once per process; `metricIntervalMs` is how often metrics are read and sent (a minute). */
export function startTelemetry(options: { metricIntervalMs?: number } = {}): void {
  if (started.get()) return;
  const resource = defaultResource().merge(resourceFromAttributes({ "service.name": config().OTEL_SERVICE_NAME }));
  const tracerProvider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  // What register() sets besides the provider: the async context (a span's children find it across
  // awaits) and the W3C trace-context and baggage headers.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  setTracerProvider(tracerProvider);
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: options.metricIntervalMs ?? 60_000 }),
    ],
  });
  metrics.setGlobalMeterProvider(meterProvider);
  observeBacklogs();
  started.set({ tracerProvider, meterProvider });
  logger.info("OpenTelemetry on", { endpoint: config().OTEL_EXPORTER_OTLP_ENDPOINT, service: config().OTEL_SERVICE_NAME });
}

/** Sends what is recorded so far (tests read it from their receiver afterwards). */
export async function flushTelemetry(): Promise<void> {
  const telemetry = started.get();
  await Promise.all([telemetry?.tracerProvider.forceFlush(), telemetry?.meterProvider.forceFlush()]);
}

/**
 * At shutdown: sends the spans and metrics still held and shuts the SDK down, giving up after
 * `withinMs`. The exporters' own bounds are no help here: each request may take
 * `OTEL_EXPORTER_OTLP_TIMEOUT` (10 s by default, settable higher) and the span processor and the
 * metric reader each allow an export 30 s, so a collector that accepts connections and never
 * answers would hold the exit that long. What is not sent in time is dropped; the caller exits.
 */
export async function stopTelemetry(withinMs: number): Promise<"sent" | "dropped"> {
  const telemetry = started.get();
  if (!telemetry) return "sent";
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"dropped">((resolve) => {
    timer = setTimeout(() => resolve("dropped"), withinMs);
  });
  const sent = Promise.all([telemetry.tracerProvider.shutdown(), telemetry.meterProvider.shutdown()]).then(() => "sent" as const);
  try {
    return await Promise.race([sent, late]);
  } finally {
    clearTimeout(timer);
  }
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
