/**
 * A stand-in for the production server in the fault tests (`support/api-server-process.ts` starts it),
 * run with `node --import tsx` and an IPC channel: Next.js's start-up path (instrumentation.ts
 * `register()`: the SIGTERM handler, the start-up, the job runner and its delivery lane) and a
 * `node:http` server handing `/api/v1` and `/api/health/ready` to the application's route handlers,
 * as Next.js's server does (`routeHandlerServer`: a request's signal aborts when its client goes away). It sends `{ type: "ready", port }` once listening; SIGTERM is the
 * application's own to handle. Asked `{ type: "waiting", caller }`, it answers how many requests of
 * that caller (`api:<key id>`) wait for events, so a test acts once they do.
 */
import type { AddressInfo } from "node:net";
import { routeHandlerServer } from "../support/route-handler-server";

async function main(): Promise<void> {
  const { register } = await import("@/instrumentation");
  await register();
  const { inProcessFetch } = await import("@/tests/support/in-process-fetch");
  const { GET: ready } = await import("@/app/api/health/ready/route");
  const server = routeHandlerServer((request) =>
    new URL(request.url).pathname === "/api/health/ready" ? ready() : inProcessFetch(request),
  );
  const { eventWaiters } = await import("@/lib/domain/events");
  process.on("message", (message: { type: string; caller: string }) => {
    if (message.type === "waiting")
      process.send?.({ type: "waiting", caller: message.caller, count: eventWaiters().waiting(message.caller) });
  });
  server.listen(0, "127.0.0.1", () => process.send?.({ type: "ready", port: (server.address() as AddressInfo).port }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
