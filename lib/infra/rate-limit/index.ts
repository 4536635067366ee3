import { config } from "@/lib/base/config";
import { logger } from "@/lib/base/logger";
import { createMemoryRateLimiter } from "./memory";
import type { RateLimiter } from "./rules";
import { createUpstashRateLimiter } from "./upstash";
import { resetWaitingPlaces } from "./waiting-places";

export { pingUpstash } from "./upstash";
export { rateRules, type RateLimitDecision, type RateLimiter, type RateRule } from "./rules";
export { sharedWaitingPlaces, type WaitingPlaces } from "./waiting-places";

let instance: RateLimiter | undefined;

/**
 * The process's rate limiter: Upstash Redis when `UPSTASH_REDIS_REST_URL` and
 * `UPSTASH_REDIS_REST_TOKEN` are set (shared by every instance), otherwise in memory.
 */
export function rateLimiter(): RateLimiter {
  if (instance) return instance;
  const { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: token } = config();
  const memory = createMemoryRateLimiter();
  instance =
    url && token
      ? createUpstashRateLimiter({
          url,
          token,
          keyPrefix: "ratelimit",
          fallback: memory,
          warn: (message) => logger.warn(message),
        })
      : memory;
  return instance;
}

/** Tests change the environment between cases; they call this to choose the limiter (and the shared waiting places) again. */
export function resetRateLimiter(): void {
  instance = undefined;
  resetWaitingPlaces();
}
