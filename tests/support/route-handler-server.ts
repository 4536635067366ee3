import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A `node:http` server handing each request to `handle` as Next.js's server hands it to a route
 * handler: a web `Request` whose `signal` aborts when the response closes before it was finished
 * (the client went away; `signalFromNodeResponse` in next/dist/server/web/spec-extension/adapters/next-request.js).
 * The fault tests' server process (tests/faults/api-server.ts) and the long poll's disconnect test use it.
 */
export function routeHandlerServer(handle: (request: Request, port: number) => Promise<Response>): Server {
  const server = createServer((req, res) => {
    const port = (server.address() as AddressInfo).port;
    void (async () => {
      const request = await webRequest(req, res, port);
      await send(res, await handle(request, port));
    })().catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  return server;
}

async function webRequest(req: IncomingMessage, res: ServerResponse, port: number): Promise<Request> {
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  return new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method, headers, body, signal: aborted.signal });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  if (res.destroyed) return;
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}
