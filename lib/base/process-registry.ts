/**
 * The process's registry: every value a process holds once, by name, and the parts boot() started
 * (lib/adapters/boot.ts), in their order. It is the one place that keeps state on `globalThis`:
 * Next.js loads the application's modules twice in one server process (the route handlers' bundles
 * and instrumentation's), so a module variable would exist twice; the registry lives under one
 * global key that both copies find.
 *
 * It imports nothing, so that every layer, db/ included, may hold its values here.
 */

/** The process-wide values, each named by the module that holds it. */
export type ProcessValueName =
  /** db/index.ts: the open database and where it is. */
  | "database"
  | "databaseSettings"
  /** db/tracing.ts: the OpenTelemetry SDK's tracer provider, when tracing is on. */
  | "tracerProvider"
  /** lib/adapters/telemetry.ts: the SDK's providers, flushed at shutdown. */
  | "telemetry"
  /** lib/infra/jobs/dispatch.ts and lib/domain/events/delivery-dispatch.ts: Inngest's dispatchers, when it runs the jobs. */
  | "jobDispatcher"
  | "deliveryDispatcher"
  /** lib/domain/events/process-waiters.ts: the requests waiting for events (`GET /events?wait=`). */
  | "eventWaiters"
  /** lib/domain/media/internal: the photo slots and the renderer child process. */
  | "photoLimiter"
  | "photoRenderer"
  /** lib/adapters/http/api-log.ts: the API log's buffered entries. */
  | "apiLog"
  /** lib/adapters/worker/runner.ts: the embedded job runner and its delivery lane. */
  | "jobRunner"
  /** lib/adapters/cli/operator-channel.ts: the embedded database's channel for CLI commands. */
  | "operatorChannel"
  /** lib/adapters/lifecycle: the HTTP servers and requests in flight, and whether shutdown has begun. */
  | "httpTraffic"
  | "shutdownBegun"
  /** lib/adapters/lifecycle/dev-warm-up.ts: `next dev`'s requests compiling the quickstart's routes. */
  | "devWarmUp"
  /** lib/adapters/boot.ts: the parts started, in order, for shutdown to stop, and the worker's keep-alive timer. */
  | "bootedProcess"
  | "workerKeepAlive";

export interface ProcessSlot<T> {
  get(): T | undefined;
  set(value: T | undefined): void;
  /** The value, made by `make` and kept on first use. */
  getOrMake(make: () => T): T;
}

const registryKey = Symbol.for("listings-platform.process-registry");
const holder = globalThis as typeof globalThis & { [registryKey]?: Map<ProcessValueName, unknown> };
const values = (holder[registryKey] ??= new Map());

/** The process's slot for the value `name`: one per process, whichever copy of a module asks. */
export function processSlot<T>(name: ProcessValueName): ProcessSlot<T> {
  return {
    get: () => values.get(name) as T | undefined,
    set: (value) => {
      if (value === undefined) values.delete(name);
      else values.set(name, value);
    },
    getOrMake: (make) => {
      if (!values.has(name)) values.set(name, make());
      return values.get(name) as T;
    },
  };
}
