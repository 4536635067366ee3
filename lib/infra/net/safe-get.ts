import http from "node:http";
import { systemResolver, type Resolver } from "@/lib/infra/net/public-address";
import { checkedLookup, OutboundError, outboundTarget, type OutboundTarget } from "@/lib/infra/net/safe-request";

/**
 * GET of an address someone else chose (photo downloads), with the checks of `safePost`: the URL's
 * form, then every address at the moment the connection is made (a name resolving to a private
 * address is refused there, DNS rebinding included). Redirects are followed a few times, each
 * target checked the same way; the body is read up to a size cap, and one time limit covers the
 * whole exchange, redirects included.
 */

export type DownloadFailure = "http_status" | "too_large" | "too_many_redirects" | "redirect_refused";

export class DownloadError extends Error {
  constructor(
    readonly reason: DownloadFailure,
    readonly status?: number,
  ) {
    super(`download failed: ${reason}${status ? ` (${status})` : ""}`);
    this.name = "DownloadError";
  }
}

export interface SafeGetRequest {
  url: string;
  timeoutMs: number;
  /** The body's cap: a larger body (declared or streamed) fails with `too_large` once past it. */
  maxBytes: number;
  maxRedirects: number;
  headers?: Record<string, string>;
  schemes?: ("https" | "http")[];
  resolve?: Resolver;
}

export interface SafeGetResponse {
  /** The address the body came from, after redirects. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export async function safeGet(request: SafeGetRequest): Promise<SafeGetResponse> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  let current = request.url;
  for (let hop = 0; hop <= request.maxRedirects; hop++) {
    const answer = await getOnce(current, request, signal);
    if (answer.kind === "body") return { url: current, headers: answer.headers, body: answer.body };
    let next: URL;
    try {
      next = new URL(answer.location, current);
    } catch {
      throw new DownloadError("redirect_refused");
    }
    current = next.toString();
  }
  throw new DownloadError("too_many_redirects");
}

type Answer = { kind: "body"; headers: http.IncomingHttpHeaders; body: Buffer } | { kind: "redirect"; location: string };

function getOnce(text: string, request: SafeGetRequest, signal: AbortSignal): Promise<Answer> {
  let target: OutboundTarget;
  try {
    target = outboundTarget(text, request.schemes);
  } catch (error) {
    return Promise.reject(error);
  }
  const { url, hostname, loopbackOnly, phase, send } = target;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    const fail = (error: unknown) =>
      settle(() =>
        reject(
          error instanceof DownloadError ? error : signal.aborted ? new OutboundError("timeout", { cause: error }) : phase.failure(error),
        ),
      );
    const req = send(
      {
        method: "GET",
        hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { "user-agent": "Service-Photos/1", accept: "image/jpeg, image/png, image/webp", ...request.headers },
        lookup: checkedLookup(request.resolve ?? systemResolver, { loopbackOnly }),
        agent: false,
        signal,
      },
      (res) => {
        phase.answered();
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.destroy();
          return settle(() => resolve({ kind: "redirect", location: res.headers.location! }));
        }
        // Settled before the socket is dropped: destroying the answer emits its own `aborted` at once.
        if (status !== 200) {
          fail(new DownloadError("http_status", status));
          return res.destroy();
        }
        const declared = Number(res.headers["content-length"]);
        if (Number.isFinite(declared) && declared > request.maxBytes) {
          fail(new DownloadError("too_large"));
          return res.destroy();
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > request.maxBytes) {
            fail(new DownloadError("too_large"));
            return res.destroy();
          }
          chunks.push(chunk);
        });
        res.on("end", () => settle(() => resolve({ kind: "body", headers: res.headers, body: Buffer.concat(chunks, size) })));
        res.on("error", fail);
        res.on("aborted", () => fail(new OutboundError("connection_failed")));
      },
    );
    req.on("socket", (socket) => {
      socket.once("connect", () => phase.connected());
      socket.once("secureConnect", () => phase.secured());
    });
    req.on("error", fail);
    req.end();
  });
}
