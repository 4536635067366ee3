import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { performance } from "node:perf_hooks";
import { checkUrlForm, resolvePublicAddresses, systemResolver, type Resolver, type UrlRefusal } from "@/lib/infra/net/public-address";

/**
 * The one client for requests to addresses others chose (webhook deliveries, photo downloads, feed pulls), safe
 * against requests into the private network: the URL's form and a literal address are checked
 * before anything is sent, and a name's addresses where the connection is made, so the socket goes
 * to an address that was checked (DNS rebinding cannot slip between a check and the connection).
 * Each connection is new, redirects are followed only when asked (each target checked the same way),
 * one time limit covers the whole exchange, redirects included, and only as much of the answer as
 * the caller allows is read.
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

/** A whole body (`read: "whole"`) longer than `maxBytes`, declared or streamed: the other end answered, too much. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`answer's body over ${maxBytes} bytes`);
    this.name = "BodyTooLargeError";
  }
}

export interface SafeRequest {
  method: "GET" | "POST";
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /**
   * What is read of the answer: `excerpt`, the first `maxBytes` of any answer's body, then the
   * connection is dropped rather than wait for the rest (a delivery's log); `whole`, a 2xx answer's
   * entire body, failing with `BodyTooLargeError` once past `maxBytes` (declared or streamed), and
   * nothing of another answer's (a download).
   */
  read: "excerpt" | "whole";
  maxBytes: number;
  /** Redirects followed; past them (none by default) a 3xx is the answer, its target never asked. */
  maxRedirects?: number;
  /** `https` only unless said otherwise (UNSAFE_ALLOW_LOCAL_URLS adds `http` to loopback). */
  schemes?: ("https" | "http")[];
  resolve?: Resolver;
}

export interface SafeResponse {
  /** The address that answered, after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  /** What `read` kept of the body. */
  body: Buffer;
  /** From the start of the request until the body was read. */
  durationMs: number;
}

export async function safeRequest(request: SafeRequest): Promise<SafeResponse> {
  const started = performance.now();
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    let url = request.url;
    for (let redirects = 0; ; redirects++) {
      const answer = await requestOnce(url, request, signal);
      const next = redirects < (request.maxRedirects ?? 0) ? redirectTarget(answer, url) : undefined;
      if (next === undefined) return { url, ...answer, durationMs: Math.round(performance.now() - started) };
      url = next;
    }
  } catch (error) {
    // Only OutboundErrors come from the other end or the network; anything else (a header Node refuses,
    // say) is the caller's mistake and goes up as it is.
    if (error instanceof OutboundError) error.durationMs = Math.round(performance.now() - started);
    throw error;
  }
}

/** Where a 3xx answer sends the request, when its `Location` is a URL; its form and addresses are checked like the first. */
function redirectTarget(answer: Answer, from: string): string | undefined {
  const location = answer.status >= 300 && answer.status < 400 ? answer.headers.location : undefined;
  if (location === undefined) return undefined;
  try {
    return new URL(location, from).toString();
  } catch {
    return undefined;
  }
}

type Answer = Pick<SafeResponse, "status" | "headers" | "body">;

function requestOnce(text: string, request: SafeRequest, signal: AbortSignal): Promise<Answer> {
  let target: OutboundTarget;
  try {
    target = outboundTarget(text, request.schemes);
  } catch (error) {
    return Promise.reject(error);
  }
  const { url, hostname, loopbackOnly, phase, send } = target;
  const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");

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
          error instanceof BodyTooLargeError
            ? error
            : signal.aborted
              ? new OutboundError("timeout", { cause: error })
              : phase.failure(error),
        ),
      );

    const req = send(
      {
        method: request.method,
        hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { ...request.headers, ...(body ? { "content-length": String(body.length) } : {}) },
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
        const status = res.statusCode ?? 0;
        const answered = (kept: Buffer) => settle(() => resolve({ status, headers: flattenHeaders(res.headers), body: kept }));
        const reading =
          request.read === "excerpt"
            ? readExcerpt(res, request.maxBytes)
            : status >= 200 && status < 300
              ? readWhole(res, request.maxBytes)
              : nothing(res);
        reading.then(answered, fail);
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
function readExcerpt(res: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      resolve(Buffer.concat(chunks, size));
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

/** Reads the whole body, or fails (and drops the connection) once it is declared or found longer than `limit`. */
function readWhole(res: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => {
      // Refused before the socket is dropped: destroying the answer emits its own `aborted` at once.
      reject(new BodyTooLargeError(limit));
      res.destroy();
    };
    const declared = Number(res.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    res.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return tooLarge();
      chunks.push(chunk);
    });
    res.on("end", () => resolve(Buffer.concat(chunks, size)));
    res.on("error", reject);
    res.on("aborted", () => reject(new OutboundError("connection_failed")));
  });
}

/** An answer whose body the caller does not want: the connection is dropped at once. */
function nothing(res: http.IncomingMessage): Promise<Buffer> {
  res.destroy();
  return Promise.resolve(Buffer.alloc(0));
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
 * The first check of every outbound request: the URL's scheme and form, and a
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
