import {
  context,
  metrics,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Histogram,
  type Span,
} from "@opentelemetry/api";
import { tracerOf } from "@/db/tracing";

/**
 * Spans and metrics through the OpenTelemetry API only. Without an SDK registered (no
 * `OTEL_EXPORTER_OTLP_ENDPOINT`: lib/adapters/telemetry.ts) every call here is the API's no-op, so
 * tracing off costs a function call; the SDK, when on, exports what these record over OTLP.
 */

export const instrumentationName = "listings-platform";

const tracer = tracerOf(instrumentationName);

/**
 * Runs `fn` in a new span, the active one while it runs (the spans it starts are its children). A
 * thrown error marks the span failed and is thrown on; the span ends when `fn` settles. `carrier`:
 * the headers of a request this span serves, whose W3C `traceparent` (a caller's or a proxy's trace)
 * it continues.
 */
export function traced<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
  carrier?: Headers,
): Promise<T> {
  const parent = carrier ? propagation.extract(context.active(), carrier, headersGetter) : context.active();
  return tracer().startActiveSpan(name, { attributes, kind }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

const headersGetter = {
  get: (carrier: Headers, key: string) => carrier.get(key) ?? undefined,
  keys: (carrier: Headers) => [...carrier.keys()],
};

export function failSpan(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** The ids a JSON log line carries so it can be found from its trace; none outside a recorded span. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

let latency: { provider: unknown; histogram: Histogram } | undefined;

/**
 * The API's request latency in seconds, by route template, method and status (OpenTelemetry's HTTP
 * name). The metrics API has no stand-in that later forwards to the SDK: an instrument made before the
 * SDK is registered stays a no-op, so the histogram is made again whenever the provider has changed.
 */
export function recordRequestDuration(seconds: number, attributes: Attributes): void {
  const provider = metrics.getMeterProvider();
  if (latency?.provider !== provider) {
    const histogram = provider.getMeter(instrumentationName).createHistogram("http.server.request.duration", {
      description: "Duration of API requests",
      unit: "s",
    });
    latency = { provider, histogram };
  }
  latency.histogram.record(seconds, attributes);
}

export { SpanKind, SpanStatusCode, type Span };
