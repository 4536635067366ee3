import http from "node:http";
import type { AddressInfo } from "node:net";
import { database } from "@/db";
import { eventTypes, recordEvent, type EventBody } from "@/lib/domain/events";
import { inProcessFetch } from "../support/in-process-fetch";
import { routeHandlerServer } from "../support/route-handler-server";

/** Records `count` events for the account, each in its own transaction like real state changes. */
export async function recordEvents(accountId: string, count: number, now = new Date()): Promise<EventBody[]> {
  const { connection: db } = await database();
  const recorded: EventBody[] = [];
  for (let i = 0; i < count; i++) {
    const event = await db.transaction((tx) => recordEvent(tx, { accountId, type: eventTypes.paused, data: { n: i }, now }));
    if (!event) throw new Error(`account ${accountId} has no key: no event recorded`);
    recorded.push(event);
  }
  return recorded;
}

/** The route handlers behind a real HTTP server on a loopback port, each request's signal aborted when its client goes away. */
export async function startApiHttpServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = routeHandlerServer((request) => inProcessFetch(request));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Sends `GET /api/v1/events{query}` over a socket of its own, which `hangUp` destroys (the client goes away mid-wait). */
export function openEventsRequest(origin: string, key: string, query: string): { hangUp(): void } {
  const request = http.get(`${origin}/api/v1/events${query}`, { headers: { authorization: `Bearer ${key}` }, agent: false });
  // The socket is destroyed before any answer: that is the test, not a failure.
  request.on("error", () => undefined);
  return { hangUp: () => request.destroy() };
}
