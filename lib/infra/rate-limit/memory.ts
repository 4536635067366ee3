import { secondsUntil, type RateLimitDecision, type RateLimiter, type RateRule } from "./rules";

interface Window {
  count: number;
  resetAt: number;
}

export interface MemoryRateLimiter extends RateLimiter {
  /** Counters currently held; expired windows are swept, so this stays bounded by recent traffic. */
  trackedWindows(): number;
}

/** How often expired windows are swept: a window outlives its end by at most this long. */
const sweepIntervalMs = 60_000;

/**
 * Fixed windows aligned to the epoch (as `@upstash/ratelimit` aligns them), counted in this process
 * only: the embedded default for a single instance. Every hit counts, refused or not
 * (docs/api.md, API decisions).
 */
export function createMemoryRateLimiter(options: { now?: () => number } = {}): MemoryRateLimiter {
  const now = options.now ?? Date.now;
  const windows = new Map<string, Window>();
  let nextSweepAt = now() + sweepIntervalMs;

  const sweep = (at: number) => {
    for (const [key, window] of windows) if (window.resetAt <= at) windows.delete(key);
    nextSweepAt = at + sweepIntervalMs;
  };

  return {
    async hit(bucket: string, rule: RateRule): Promise<RateLimitDecision> {
      const at = now();
      if (at >= nextSweepAt) sweep(at);
      const windowMs = rule.windowSeconds * 1000;
      const key = `${rule.name}:${bucket}`;
      let window = windows.get(key);
      if (!window || window.resetAt <= at) {
        window = { count: 0, resetAt: (Math.floor(at / windowMs) + 1) * windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return {
        limited: window.count > rule.limit,
        limit: rule.limit,
        remaining: Math.max(0, rule.limit - window.count),
        resetSeconds: secondsUntil(window.resetAt, at),
      };
    },
    trackedWindows: () => windows.size,
  };
}
