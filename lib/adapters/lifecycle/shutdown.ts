import { closeDatabase } from "@/db";
import { config } from "@/lib/base/config";
import { logger } from "@/lib/base/logger";
import { flushApiLog } from "@/lib/adapters/http/api-log";
import { stopJobRunner } from "@/lib/adapters/worker/runner";
import { endEventWaits } from "@/lib/domain/events";
import { requestsEnded, stopAcceptingConnections, watchHttpTraffic } from "./http-traffic";
import { beginShutdown } from "./shutdown-state";

/**
 * Graceful shutdown on SIGTERM (and SIGINT), installed by instrumentation at start-up:
 * 1. readiness answers 503 from now on (`/api/health/ready`), so a load balancer stops sending;
 * 2. the HTTP server stops accepting connections, and every answer closes its connection; the
 *    requests waiting for events (`GET /events?wait=`) answer at once with the empty page;
 * 3. the requests in flight end, and the job runner stops claiming: its job in progress (a photo
 *    list) finishes, and the delivery lane gives back the deliveries it claimed ahead and waits for
 *    the attempts in flight, all within `SHUTDOWN_GRACE_MS` from the signal;
 * 4. the API log's buffered entries are written, the database is closed, traces and metrics are
 *    sent when tracing is on, within what is left of the grace (at least `telemetryLeastMs`;
 *    what is not sent by then is dropped); exit 0.
 * Past the grace the jobs still running are given back (their rows due again at once, a photo
 * list's lease released) and the rest is logged and left: a request is cut off, a delivery's claim
 * ends on its own and another instance takes it up (docs/operations.md, Health and shutdown).
 *
 * Next.js's own handler (`start-server.js`, unless `NEXT_MANUAL_SIG_HANDLE` is set) would close the
 * server and exit 143 as soon as the connections end, before the runner, the API log and the
 * database are done; this one replaces it.
 */
export function installShutdown(): void {
  watchHttpTraffic();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    // Next.js's listeners are the only ones at this point of start-up (instrumentation runs first).
    process.removeAllListeners(signal);
    process.on(signal, () => void shutDown(signal));
  }
}

/**
 * What sending the last traces and metrics gets when the drain has used the whole grace: enough
 * for a collector that answers, so a drain that ran long still sends them.
 */
const telemetryLeastMs = 1000;

async function shutDown(signal: NodeJS.Signals): Promise<void> {
  if (!beginShutdown()) return;
  const graceMs = config().SHUTDOWN_GRACE_MS;
  const deadline = Date.now() + graceMs;
  logger.info("shutting down", { signal, graceMs });
  stopAcceptingConnections();
  endEventWaits();
  const [requestsLeft, runner] = await Promise.all([requestsEnded(deadline), stopJobRunner({ by: deadline })]);
  if (requestsLeft > 0) logger.warn("shutdown grace over with requests in flight; they are cut off", { requests: requestsLeft });
  if (runner === "late")
    logger.warn("shutdown grace over with jobs or webhook deliveries running; what was not given back ends on its own");
  try {
    await flushApiLog();
    await closeDatabase();
    // The last requests' spans and metrics, within what is left of the grace; the SDK is loaded
    // only when tracing is on (instrumentation.ts).
    if (config().OTEL_EXPORTER_OTLP_ENDPOINT) {
      const { stopTelemetry } = await import("@/lib/adapters/telemetry");
      if ((await stopTelemetry(Math.max(deadline - Date.now(), telemetryLeastMs))) === "dropped")
        logger.warn("shutdown: traces and metrics not sent within the grace; they are dropped");
    }
  } catch (error) {
    logger.error("shutdown: API log, database or telemetry not closed cleanly", { error });
  }
  logger.info("shut down");
  process.exit(0);
}
