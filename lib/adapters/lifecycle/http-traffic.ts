import { subscribe } from "node:diagnostics_channel";
import type { Server, ServerResponse } from "node:http";
import { processSlot } from "@/lib/base/process-registry";

/**
 * The process's HTTP requests in flight and the servers they came through, seen on Node's
 * `http.server.request.start` diagnostics channel. Next.js starts its HTTP server before
 * instrumentation runs and gives the application no handle on it; the channel reports every
 * request of every `node:http` server in the process, so shutdown can close the server Next.js
 * made and wait for its requests without reaching into the framework.
 */
interface Traffic {
  servers: Set<Server>;
  inFlight: Set<ServerResponse>;
  /** Once shutdown has begun: each answer closes its connection, and the servers stop accepting. */
  closing: boolean;
  drained: Set<() => void>;
}

const watched = processSlot<Traffic>("httpTraffic");

/** Starts watching (at boot, before the first request is served); once per process. */
export function watchHttpTraffic(): void {
  if (watched.get()) return;
  const traffic: Traffic = { servers: new Set(), inFlight: new Set(), closing: false, drained: new Set() };
  watched.set(traffic);
  subscribe("http.server.request.start", (message) => {
    const { response, server } = message as { response: ServerResponse; server: Server };
    traffic.inFlight.add(response);
    if (!traffic.servers.has(server)) {
      traffic.servers.add(server);
      // A server first seen after shutdown began (no request had come through it before) closes now.
      if (traffic.closing) closeServer(server);
    }
    if (traffic.closing) response.shouldKeepAlive = false;
    // `close` comes after the answer is sent and when the client goes away first, so none is counted forever.
    response.once("close", () => {
      traffic.inFlight.delete(response);
      if (traffic.closing) for (const open of traffic.servers) open.closeIdleConnections();
      if (traffic.inFlight.size === 0) for (const resolve of traffic.drained) resolve();
    });
  });
}

/**
 * Stops taking connections: each server closes its listening socket and its idle keep-alive
 * connections, and every answer from now on (those in flight included) closes its connection.
 */
export function stopAcceptingConnections(): void {
  const traffic = watched.get();
  if (!traffic || traffic.closing) return;
  traffic.closing = true;
  for (const response of traffic.inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
  for (const server of traffic.servers) closeServer(server);
}

function closeServer(server: Server): void {
  server.close();
  server.closeIdleConnections();
}

/** Resolves with the number of requests still in flight once none is, or at `deadline` (epoch ms). */
export async function requestsEnded(deadline: number): Promise<number> {
  const traffic = watched.get();
  if (!traffic || traffic.inFlight.size === 0) return 0;
  let done: () => void = () => {};
  const ended = new Promise<void>((resolve) => (done = resolve));
  traffic.drained.add(done);
  const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
  await ended;
  clearTimeout(timer);
  traffic.drained.delete(done);
  return traffic.inFlight.size;
}
