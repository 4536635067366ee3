/** Next.js calls this once per server process: background work starts here, never during `next build`. */
export async function register(): Promise<void> {
  // The runtime test stays inline: it is what lets the bundler drop the Node-only imports from the edge build.
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.NEXT_PHASE !== "phase-production-build") {
    // Tracing first, so everything after it is traced; the SDK is imported only when it is wanted
    // (docs/operations.md, Tracing and metrics): unset, nothing is loaded and the OpenTelemetry API stays a no-op.
    if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
      const { startTelemetry } = await import("@/lib/adapters/telemetry");
      startTelemetry();
    }
    const { refuseForbiddenMethods } = await import("@/lib/adapters/http/forbidden-methods");
    refuseForbiddenMethods();
    // SIGTERM drains this process (readiness 503, requests, runner, API log, database) before it exits.
    const { installShutdown } = await import("@/lib/adapters/lifecycle/shutdown");
    installShutdown();
    // Jobs run on Inngest, which this process tells about each committed row (set before anything
    // can enqueue), or else in the embedded runner, which polls the table.
    const { registerInngestDispatcher } = await import("@/inngest/dispatch");
    registerInngestDispatcher();
    const { prepareServer } = await import("@/lib/adapters/startup");
    await prepareServer();
    const { startJobRunner } = await import("@/lib/adapters/worker/runner");
    startJobRunner();
  }
}
