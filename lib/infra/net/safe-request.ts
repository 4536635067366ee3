import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { performance } from "node:perf_hooks";
import { checkUrlForm, resolvePublicAddresses, systemResolver, type Resolver, type UrlRefusal } from "@/lib/infra/net/public-address";

/**
 * POST to an address a subscriber chose, safely: the address is checked where the connection is
 * made, redirects are never followed, the whole exchange has one time limit, and only the start of
 * the answer is read.
 */

export type OutboundFailure =
  | "refused_url" // not an allowed URL: see `refusal`
  | "refused_address" // the host is, or resolves to, an address that is not public
  | "dns_failed"
  | "connection_failed"
  | "tls_failed"
  | "invalid_response" // not HTTP the parser accepts
  | "timeout";

export class OutboundError extends Error {
  readonly reason: OutboundFailure;
  /** Why the URL was refused, for `refused_url` and `refused_address`. */
  readonly refusal: UrlRefusal | undefined;
  /** From the start of the request until the failure. */
  durationMs = 0;

  constructor(reason: OutboundFailure, options: { refusal?: UrlRefusal; cause?: unknown } = {}) {
    super(`outbound request failed: ${reason}${options.refusal ? ` (${options.refusal})` : ""}`, { cause: options.cause });
    this.name = "OutboundError";
    this.reason = reason;
    this.refusal = options.refusal;
  }
}

export interface SafePostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** How much of the response body to keep; the connection is dropped once it is read. */
  maxResponseBytes: number;
  /** `https` only unless said otherwise (UNSAFE_ALLOW_LOCAL_URLS adds `http` to loopback). */
  schemes?: ("https" | "http")[];
  resolve?: Resolver;
}

export interface SafePostResponse {
  status: number;
  headers: Record<string, string>;
  /** The first `maxResponseBytes` of the body, as UTF-8. */
  excerpt: string;
  durationMs: number;
}

export async function safePost(request: SafePostRequest): Promise<SafePostResponse> {
  const started = performance.now();
  try {
    return await post(request, started);
  } catch (error) {
    // Only OutboundErrors come from the receiver or the network; anything else (a header Node refuses,
    // say) is the caller's mistake and goes up as it is.
    if (error instanceof OutboundError) error.durationMs = Math.round(performance.now() - started);
    throw error;
  }
}

function post(request: SafePostRequest, started: number): Promise<SafePostResponse> {
  let target: OutboundTarget;
  try {
    target = outboundTarget(request.url, request.schemes);
  } catch (error) {
    return Promise.reject(error);
  }
  const { url, hostname, loopbackOnly, phase, send } = target;
  const body = Buffer.from(request.body, "utf8");
  const signal = AbortSignal.timeout(request.timeoutMs);

  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    const fail = (error: unknown) =>
      settle(() => reject(signal.aborted ? new OutboundError("timeout", { cause: error }) : phase.failure(error)));

    const req = send(
      {
        method: "POST",
        hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { ...request.headers, "content-length": String(body.length) },
        // Named hosts are resolved and checked here, at connection time, and the socket goes to one of
        // the addresses checked: a name that answers public once and private next time (DNS rebinding)
        // cannot slip between a check and the connection. Host and SNI stay the name.
        lookup: checkedLookup(request.resolve ?? systemResolver, { loopbackOnly }),
        // A fresh connection each time: a pooled socket would skip the lookup above.
        agent: false,
        signal,
      },
      (res) => {
        phase.answered();
        readExcerpt(res, request.maxResponseBytes).then(
          (excerpt) =>
            settle(() =>
              resolve({
                status: res.statusCode ?? 0,
                headers: flattenHeaders(res.headers),
                excerpt,
                durationMs: Math.round(performance.now() - started),
              }),
            ),
          fail,
        );
      },
    );
    req.on("socket", (socket) => {
      socket.once("connect", () => phase.connected());
      socket.once("secureConnect", () => phase.secured());
    });
    req.on("error", fail);
    req.end(body);
  });
}

/** Reads up to `limit` bytes of the body, then drops the connection rather than wait for the rest. */
function readExcerpt(res: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      resolve(new TextDecoder().decode(Buffer.concat(chunks)));
      res.destroy();
    };
    if (limit <= 0) return done();
    res.on("data", (chunk: Buffer) => {
      const kept = chunk.subarray(0, limit - size);
      chunks.push(kept);
      size += kept.length;
      if (size >= limit) done();
    });
    res.on("end", done);
    res.on("error", reject);
  });
}

export function checkedLookup(resolve: Resolver, scope: { loopbackOnly: boolean }): LookupFunction {
  return (hostname, options, callback) => {
    resolvePublicAddresses(hostname, resolve, scope).then((result) => {
      if (!result.ok) {
        const reason = result.reason === "private_address" ? "refused_address" : "dns_failed";
        return callback(new OutboundError(reason, { refusal: result.reason }), "", 0);
      }
      // Every answer was checked above; the connection may take any of those of the family asked for.
      const answers = result.addresses
        .map((address) => ({ address, family: isIP(address) }))
        .filter((answer) => !options.family || answer.family === options.family);
      if (answers.length === 0) return callback(new OutboundError("dns_failed"), "", 0);
      if (options.all) return callback(null, answers);
      callback(null, answers[0].address, answers[0].family);
    });
  };
}

/**
 * How far the exchange got, which names a failure better than error codes would: an error before
 * the TCP connection is a connection failure, between it and the TLS handshake's end a TLS failure,
 * and a parser error after it an invalid response.
 */
export interface OutboundTarget {
  url: URL;
  /** Where to connect: the checked literal address, or the name (resolved and checked by `checkedLookup`). */
  hostname: string;
  /** Plain `http` allowed by UNSAFE_ALLOW_LOCAL_URLS: the name's answers must all be loopback. */
  loopbackOnly: boolean;
  phase: ExchangePhase;
  send: typeof http.request;
}

/**
 * The first check of every outbound request (safePost, safeGet): the URL's scheme and form, and a
 * literal address's range, refused as an OutboundError before anything is sent; then where and how
 * to connect.
 */
export function outboundTarget(text: string, schemes: ("https" | "http")[] = ["https"]): OutboundTarget {
  const form = checkUrlForm(text, schemes);
  if (!form.ok) {
    const reason = form.reason === "private_address" ? "refused_address" : "refused_url";
    throw new OutboundError(reason, { refusal: form.reason });
  }
  const { url } = form;
  const secure = url.protocol === "https:";
  return {
    url,
    hostname: form.address ?? url.hostname,
    loopbackOnly: form.loopbackOnly,
    phase: new ExchangePhase(secure),
    send: secure ? https.request : http.request,
  };
}

export class ExchangePhase {
  private stage: "connecting" | "handshaking" | "exchanging" = "connecting";

  constructor(private readonly tls: boolean) {}

  connected(): void {
    this.stage = this.tls ? "handshaking" : "exchanging";
  }

  secured(): void {
    this.stage = "exchanging";
  }

  answered(): void {
    this.stage = "exchanging";
  }

  failure(error: unknown): OutboundError {
    if (error instanceof OutboundError) return error;
    const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "";
    if (code.startsWith("HPE_")) return new OutboundError("invalid_response", { cause: error });
    if (this.stage === "handshaking") return new OutboundError("tls_failed", { cause: error });
    return new OutboundError("connection_failed", { cause: error });
  }
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}
