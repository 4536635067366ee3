import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import { createCircuit } from "./circuit";
import { secondsUntil, type RateLimitDecision, type RateLimiter, type RateRule } from "./rules";

export interface UpstashRateLimiterOptions {
  url: string;
  token: string;
  /** Namespace of every counter key, e.g. `ratelimit`; tests use a fresh one per run. */
  keyPrefix: string;
  /** Answers while Redis is slow or unreachable (see `hit`). */
  fallback: RateLimiter;
  /** Told when Redis stops answering and when it answers again. */
  warn: (message: string) => void;
  timeoutMs?: number;
  /** While Redis is degraded, how often it is probed again (see `createCircuit`). */
  probeIntervalMs?: number;
}

/**
 * A Redis round trip takes a few milliseconds; after this long the answer comes from the fallback
 * instead of holding the request (the library's own default of 5 s would hold every API call).
 */
const defaultTimeoutMs = 1000;

/** A few seconds: an outage is noticed by the first call, its end within this long of traffic. */
export const defaultProbeIntervalMs = 5000;

/**
 * An Upstash REST client whose every request is aborted after `abortAfterTimeouts` × `timeoutMs`.
 * Aborting is what closes the request's socket: a request merely given up on (a race with a timer, as
 * `@upstash/ratelimit`'s own `timeout` does) keeps its connection open until the server answers, one
 * more socket per request against an endpoint that accepts connections and never answers. The caller
 * stops waiting at `timeoutMs` (and opens its circuit); the request itself lives a few times longer,
 * so a Redis that is only slow (a first script load on a busy machine) still counts the hit.
 */
const abortAfterTimeouts = 5;

export function createUpstashRedis(options: { url: string; token: string; timeoutMs: number }): Redis {
  return new Redis({
    url: options.url,
    token: options.token,
    // A retry after a network error would outlast the timeout anyway; one quick retry covers a
    // dropped keep-alive connection. An aborted request is not retried.
    retry: { retries: 1, backoff: () => 50 },
    enableTelemetry: false,
    // A function: a fresh signal per request, and the client then throws on abort instead of
    // answering the abort's reason as if it were Redis's result.
    signal: () => AbortSignal.timeout(options.timeoutMs * abortAfterTimeouts),
  });
}

/**
 * Fixed windows in Upstash Redis, shared by every instance of the app: the scale-out path.
 *
 * - `ephemeralCache: false`: the library's in-memory cache answers "blocked" for an identifier it has
 *   seen refused without asking Redis, so those refused requests would not be counted; refused
 *   requests count too (docs/api.md, API decisions), so every hit goes to Redis.
 * - Timeouts and errors degrade to the fallback (the per-process limiter) rather than failing open
 *   (no limit at all) or closed (every API call refused while Redis is down): the API stays up,
 *   each instance still enforces the limit on its own traffic, headers stay truthful for that
 *   instance, and the outage and the recovery are logged once each.
 * - The first timeout or error opens a circuit: from then on hits go to the fallback without
 *   calling Redis (so a hung endpoint costs no request its timeout), and a PING every
 *   `probeIntervalMs`, one at a time and in the background, finds when Redis answers again.
 */
export function createUpstashRateLimiter(options: UpstashRateLimiterOptions): RateLimiter {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const redis = createUpstashRedis({ url: options.url, token: options.token, timeoutMs });
  const limiters = new Map<string, Ratelimit>();
  const circuit = createCircuit({
    probe: () => pingThrough(redis),
    probeIntervalMs: options.probeIntervalMs ?? defaultProbeIntervalMs,
    onOpen: (reason) => options.warn(`rate limit: Upstash Redis unavailable (${reason}); counting per process until it answers`),
    onClose: () => options.warn("rate limit: Upstash Redis answers again"),
  });

  const limiterFor = (rule: RateRule): Ratelimit => {
    const id = `${rule.name}:${rule.limit}:${rule.windowSeconds}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.fixedWindow(rule.limit, `${rule.windowSeconds} s`),
        prefix: `${options.keyPrefix}:${rule.name}`,
        ephemeralCache: false,
        // Bounds the whole check (a script not yet loaded takes a second request); each request's
        // own abort closes its socket.
        timeout: timeoutMs,
        analytics: false,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };

  const degrade = (bucket: string, rule: RateRule, reason: string) => {
    circuit.failed(reason);
    return options.fallback.hit(bucket, rule);
  };

  return {
    async hit(bucket: string, rule: RateRule): Promise<RateLimitDecision> {
      if (!circuit.allows()) return options.fallback.hit(bucket, rule);
      let response: Awaited<ReturnType<Ratelimit["limit"]>>;
      try {
        response = await limiterFor(rule).limit(bucket);
      } catch (error) {
        return degrade(bucket, rule, error instanceof Error ? error.message : String(error));
      }
      if (response.reason === "timeout") return degrade(bucket, rule, "timeout");
      return {
        limited: !response.success,
        limit: response.limit,
        remaining: Math.max(0, response.remaining),
        resetSeconds: secondsUntil(response.reset, Date.now()),
      };
    },
  };
}

/** A circuit's probe: resolves when Redis answers PING, rejects otherwise. */
export async function pingThrough(redis: Redis): Promise<void> {
  const answer = await redis.ping();
  if (answer !== "PONG") throw new Error(`Upstash Redis answered PING with ${answer}`);
}

/**
 * Whether Upstash Redis answers a PING within `timeoutMs` (readiness, `/api/health/ready`). The
 * driver's error is not returned: it may carry the address, and the caller logs only the reason.
 */
export async function pingUpstash(options: { url: string; token: string; timeoutMs: number }): Promise<"ok" | "timeout" | "error"> {
  const redis = new Redis({
    url: options.url,
    token: options.token,
    retry: false,
    enableTelemetry: false,
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  try {
    return (await redis.ping()) === "PONG" ? "ok" : "error";
  } catch (error) {
    return error instanceof Error && /abort|timeout/i.test(`${error.name} ${error.message}`) ? "timeout" : "error";
  }
}
