import { metrics, SpanKind, SpanStatusCode, trace, type Attributes, type Histogram, type Span, type Tracer } from "@opentelemetry/api";

/**
 * Spans and metrics through the OpenTelemetry API only. Without an SDK registered (no
 * `OTEL_EXPORTER_OTLP_ENDPOINT`: lib/adapters/telemetry.ts) every call here is the API's no-op, so
 * tracing off costs a function call; the SDK, when on, exports what these record over OTLP.
 */

export const instrumentationName = "listings-platform";

/**
 * Asked for once: the API's tracer stands in until an SDK is registered and then forwards to the
 * SDK's, so it never goes stale, and looking a tracer up by name on every span showed in the profile.
 */
let cachedTracer: Tracer | undefined;
const tracer = () => (cachedTracer ??= trace.getTracer(instrumentationName));

/**
 * Runs `fn` in a new span, the active one while it runs (the spans it starts are its children). A
 * thrown error marks the span failed and is thrown on; the span ends when `fn` settles.
 */
export function traced<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  return tracer().startActiveSpan(name, { attributes, kind }, async (span) => {
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
