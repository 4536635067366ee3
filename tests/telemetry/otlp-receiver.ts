import { startHttpServer, type LocalServer } from "../support/local-http-server";

/** One span as an OTLP/HTTP JSON body carries it, attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  scope: string;
  resource: Record<string, unknown>;
}

export interface ReceivedMetric {
  name: string;
  points: { attributes: Record<string, unknown>; value: unknown }[];
}

type OtlpAttribute = { key: string; value: Record<string, unknown> };

const flatten = (attributes: OtlpAttribute[] = []): Record<string, unknown> =>
  Object.fromEntries(attributes.map(({ key, value }) => [key, Object.values(value)[0]]));

/** A local OTLP/HTTP collector: accepts `/v1/traces` and `/v1/metrics` with JSON bodies and keeps what they carry. */
export async function startOtlpReceiver(): Promise<LocalServer & { spans(): ReceivedSpan[]; metrics(): ReceivedMetric[] }> {
  const server = await startHttpServer((_request, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
  const bodies = (path: string) =>
    server.received.filter((request) => request.url === path).map((request) => JSON.parse(request.body) as Record<string, any>);
  return {
    ...server,
    spans: () =>
      bodies("/v1/traces").flatMap((body) =>
        (body.resourceSpans as any[]).flatMap((resourceSpans) =>
          (resourceSpans.scopeSpans as any[]).flatMap((scopeSpans) =>
            (scopeSpans.spans as any[]).map((span) => ({
              ...span,
              parentSpanId: span.parentSpanId || undefined,
              attributes: flatten(span.attributes),
              status: span.status ?? {},
              scope: scopeSpans.scope?.name,
              resource: flatten(resourceSpans.resource?.attributes),
            })),
          ),
        ),
      ),
    metrics: () =>
      bodies("/v1/metrics").flatMap((body) =>
        (body.resourceMetrics as any[]).flatMap((resourceMetrics) =>
          (resourceMetrics.scopeMetrics as any[]).flatMap((scopeMetrics) =>
            (scopeMetrics.metrics as any[]).map((metric) => {
              const data = metric.histogram ?? metric.gauge ?? metric.sum ?? {};
              return {
                name: metric.name,
                points: ((data.dataPoints ?? []) as any[]).map((point) => ({
                  attributes: flatten(point.attributes),
                  value: point.asInt ?? point.asDouble ?? point.count,
                })),
              };
            }),
          ),
        ),
      ),
  };
}
