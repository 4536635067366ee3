/** How the client retries a 429 or 503 (only requests safe to repeat: see `retryable`). */
export interface RetryOptions {
  /** Further attempts after the first; 0 turns retrying off. Default 2. */
  retries?: number;
  /** The wait before the first retry when the answer has no `Retry-After`, doubled at each further one. Default 500 ms. */
  baseDelayMs?: number;
  /** The longest wait: a `Retry-After` beyond it ends retrying and the answer is returned (an ApiError from the helpers). Default 60 s. */
  maxDelayMs?: number;
  /** Called before each wait: for logging or metrics. */
  onRetry?: (retry: { attempt: number; delayMs: number; status: number; request: Request }) => void;
}

type Fetch = (request: Request) => Promise<Response>;

const retriedStatuses = new Set([429, 503]);
// RFC 9110 idempotent methods: repeating them has the effect of sending them once.
const idempotentMethods = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/** Safe to send again: an idempotent method, or a write the server deduplicates by its `Idempotency-Key`. */
export function retryable(request: Request): boolean {
  return idempotentMethods.has(request.method) || request.headers.has("idempotency-key");
}

/** `Retry-After` (delay seconds or an HTTP date) in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential back-off with jitter (half fixed, half random), so many clients refused together do not return together. */
function backOffMs(attempt: number, baseDelayMs: number, maxDelayMs: number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
  });
}

/**
 * `fetch` that sends a retryable request again after a 429 or 503, waiting `Retry-After` when the
 * answer has one and an exponential back-off otherwise, at most `retries` times. Each attempt sends
 * the same headers (so the same `Idempotency-Key`) and the same body bytes.
 */
export function retryingFetch(send: Fetch, options: RetryOptions = {}): Fetch {
  const { retries = 2, baseDelayMs = 500, maxDelayMs = 60_000, onRetry } = options;
  return async (request) => {
    if (retries <= 0 || !retryable(request)) return send(request);
    const body = request.body ? await request.arrayBuffer() : undefined;
    const attemptOf = () =>
      new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body,
        signal: request.signal,
        redirect: request.redirect,
      });
    for (let attempt = 0; ; attempt++) {
      const response = await send(attemptOf());
      if (attempt >= retries || !retriedStatuses.has(response.status)) return response;
      const delayMs = retryAfterMs(response.headers.get("retry-after")) ?? backOffMs(attempt, baseDelayMs, maxDelayMs);
      if (delayMs > maxDelayMs) return response;
      await response.body?.cancel();
      onRetry?.({ attempt: attempt + 1, delayMs, status: response.status, request });
      await sleep(delayMs, request.signal);
    }
  };
}
