import { SpanKind, SpanStatusCode, trace, type Tracer, type TracerProvider } from "@opentelemetry/api";
import { processSlot } from "@/lib/base/process-registry";

/**
 * The SDK's tracer provider, when tracing is on (lib/adapters/telemetry.ts). It is deliberately not
 * the OpenTelemetry API's global provider: Next.js records spans of its own whenever a global one is
 * registered (a dozen per request, a third of tracing's cost per request: docs/operations.md, Tracing
 * and metrics), so the product's spans ask it here. In the process registry, set at boot and read by
 * the route handlers. Kept in this bottom layer so that both the query spans below and
 * lib/base/tracing.ts read it.
 */
const sdkProvider = processSlot<TracerProvider>("tracerProvider");

export function setTracerProvider(provider: TracerProvider | undefined): void {
  sdkProvider.set(provider);
}

/**
 * A tracer of the SDK's provider, or the API's no-op one while tracing is off. Cached per provider:
 * looking a tracer up by name on every span showed in the profile.
 */
export function tracerOf(name: string): () => Tracer {
  let cached: { provider: TracerProvider; tracer: Tracer } | undefined;
  return () => {
    const provider = sdkProvider.get() ?? trace.getTracerProvider();
    if (cached?.provider !== provider) cached = { provider, tracer: provider.getTracer(name) };
    return cached.tracer;
  };
}

/**
 * A span per database query. Neither driver has OpenTelemetry instrumentation and drizzle's own
 * tracing is switched off in its build, so the prepared-query class of each driver (drizzle's public
 * `execute` and `all`, which every query and `db.execute` goes through) is wrapped once, here.
 *
 * A query gets a span only inside another span (a request, a job, a delivery): the runner's polling
 * claims every second would otherwise each be a trace of their own. Outside any span (always, while
 * tracing is off) the wrapper calls through after one look at the active context.
 *
 * The span carries the statement as drizzle sends it, `$1`-style placeholders and no parameter values.
 */

interface PreparedQuery {
  getQuery(): { sql: string };
  execute(...args: unknown[]): Promise<unknown>;
  all(...args: unknown[]): Promise<unknown>;
}

const wrapped = Symbol.for("listings.db.traced");
const tracer = tracerOf("listings-platform.db");

export function traceQueries(prepared: { prototype: object }, driver: "pglite" | "postgres"): void {
  const proto = prepared.prototype as PreparedQuery & { [wrapped]?: true };
  if (proto[wrapped]) return;
  proto[wrapped] = true;
  for (const method of ["execute", "all"] as const) {
    const original = proto[method];
    proto[method] = function (this: PreparedQuery, ...args: unknown[]) {
      if (!trace.getActiveSpan()?.isRecording()) return original.apply(this, args);
      const { name, text } = describe(this.getQuery().sql);
      const attributes = { "db.system.name": "postgresql", "db.query.text": text, "db.client": driver };
      // A child of the active span but never active itself: a query starts no span of its own, and
      // entering a context for it would cost an async-context switch per query for nothing.
      const span = tracer().startSpan(name, { kind: SpanKind.CLIENT, attributes });
      return (original.apply(this, args) as Promise<unknown>).then(
        (result) => {
          span.end();
          return result;
        },
        (error: unknown) => {
          span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
          span.end();
          throw error;
        },
      );
    };
  }
}

/**
 * The span's name, the statement's first word (`SELECT`, `UPDATE`, `WITH`…, as OpenTelemetry names
 * database spans without a summary), and the text it carries: the statement with each list of four
 * or more columns written as `…N columns…`. A listing's statements name its 40 columns two or three
 * times (2–3 kB each), and a PATCH's spans carried 6 kB of them: their export (serialised, then
 * written to the collector's socket) was most of tracing's cost per PATCH (docs/benchmarks.md). The
 * tables, joins, conditions and placeholders stay as sent. Worked out once per statement.
 */
function describe(statement: string): { name: string; text: string } {
  let described = descriptions.get(statement);
  if (described === undefined) {
    described = {
      name: /^\s*([A-Za-z]+)/.exec(statement)?.[1]?.toUpperCase() ?? "QUERY",
      text: statement.replace(columnList, (list) => `…${list.split(",").length} columns…`),
    };
    // The statements are the application's own, parameters apart: a few hundred; the bound keeps a stray one from growing it.
    if (descriptions.size < 2000) descriptions.set(statement, described);
  }
  return described;
}

/** Four or more quoted column names in a row, each maybe with its table (`"listings"."id", "code", …`). */
const columnList = /(?:"[^"]+"\.)?"[^"]+"(?:, (?:"[^"]+"\.)?"[^"]+"){3,}/g;

const descriptions = new Map<string, { name: string; text: string }>();
