import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { logger } from "@/lib/base/logger";
import { refuseForbiddenMethod } from "./endpoint";
import { httpMethods } from "./methods";

/**
 * A method the Fetch standard forbids (TRACE) can never become a `Request`, so Next.js fails
 * on them with its own text/plain 500 before any proxy or route handler runs. The one place that
 * sees them is the Node.js server's `request` event: this guard answers them there, under /api/v1
 * with the API's 405 problem (request id, rate limit, API log row), elsewhere with a plain 405.
 * TRACK is refused by Node.js's parser (400) and CONNECT closed (no `connect` listener) before any of it.
 */
const forbidden = new Set(["TRACE"]);
const allow = httpMethods.join(", ");
const installed = Symbol.for("listings.forbiddenMethodGuard");

export function refuseForbiddenMethods(): void {
  const prototype = http.Server.prototype as http.Server & { [installed]?: true };
  if (prototype[installed]) return;
  prototype[installed] = true;
  const emit = prototype.emit;
  prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    const [request, response] = args as [IncomingMessage, ServerResponse];
    if (event !== "request" || !forbidden.has(request.method ?? "")) return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
    answer(request, response).catch((error: unknown) => {
      logger.error("forbidden method not answered", { error, method: request.method });
      response.destroy();
    });
    return true;
  } as typeof emit;
}

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  request.resume();
  const url = new URL(request.url ?? "/", `http://${request.headers.host ?? "localhost"}`);
  if (!url.pathname.startsWith("/api/v1/")) {
    response.writeHead(405, { Allow: allow, "Content-Type": "text/plain; charset=utf-8" }).end("Method Not Allowed\n");
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const refused = await refuseForbiddenMethod(new Request(url, { headers }), request.method!, allow);
  response.writeHead(refused.status, Object.fromEntries(refused.headers));
  response.end(await refused.text());
}
