/**
 * A stand-in for the production server in the fault tests (`support/api-server-process.ts` starts it),
 * run with `node --import tsx` and an IPC channel: Next.js's start-up path (instrumentation.ts
 * `register()`: the SIGTERM handler, the start-up, the job runner and its delivery lane) and a
 * `node:http` server handing `/api/v1` and `/api/health/ready` to the application's route handlers,
 * as Next.js's server does. It sends `{ type: "ready", port }` once listening; SIGTERM is the
 * application's own to handle. Asked `{ type: "waiting", caller }`, it answers how many requests of
 * that caller (`api:<key id>`) wait for events, so a test acts once they do.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

async function toRequest(req: IncomingMessage, port: number): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  return new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method, headers, body });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

async function main(): Promise<void> {
  const { register } = await import("@/instrumentation");
  await register();
  const { inProcessFetch } = await import("@/tests/support/in-process-fetch");
  const { GET: ready } = await import("@/app/api/health/ready/route");
  const server = createServer((req, res) => {
    const port = (server.address() as AddressInfo).port;
    void (async () => {
      const request = await toRequest(req, port);
      await send(res, req.url === "/api/health/ready" ? await ready() : await inProcessFetch(request));
    })().catch((error: unknown) => {
      console.error(error);
      res.writeHead(500).end();
    });
  });
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
