/**
 * `npm run worker` (in the release bundle `node worker.mjs`): the embedded job runner and the webhook
 * delivery lane in a process of their own, without the web server, for a deployment whose web
 * instances run with `JOBS_RUNNER=off` (docs/jobs.md, Jobs). The same start-up as the server's
 * (instrumentation.ts): tracing when configured, the database opened and checked, SIGTERM draining
 * the runner within `SHUTDOWN_GRACE_MS` and closing the database before exit 0.
 */
import { logger } from "@/lib/base/logger";

// The web instances' JOBS_RUNNER=off, in an environment they share with this process, is not for it.
process.env.JOBS_RUNNER = "on";
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  const { startTelemetry } = await import("@/lib/adapters/telemetry");
  startTelemetry();
}
const { installShutdown } = await import("@/lib/adapters/lifecycle/shutdown");
installShutdown();
const { registerInngestDispatcher } = await import("@/inngest/dispatch");
if (registerInngestDispatcher()) {
  logger.error("Inngest is configured (INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY, or INNGEST_DEV): it runs the jobs, not npm run worker");
  process.exit(1);
}
const { prepareServer } = await import("@/lib/adapters/startup");
await prepareServer();
const { startJobRunner } = await import("@/lib/adapters/worker/runner");
startJobRunner();
// The runner's timer is unref'd (it never holds a web server open); here it is the process's only work.
setInterval(() => {}, 1 << 30);
