import { config } from "@/lib/base/config";
import { logger } from "@/lib/base/logger";
import { createCircuit } from "./circuit";
import { createUpstashRedis, defaultProbeIntervalMs, pingThrough } from "./upstash";

/**
 * Places of requests that wait (long polls of `GET /events`), counted across every instance: a
 * caller holds at most `limit` at once. Each instance also counts its own in memory
 * (lib/domain/events/waiters.ts); this store makes the limit hold for the caller's requests on all
 * instances together, as the rate limits do, in Upstash Redis when it is configured.
 */
export interface WaitingPlaces {
  /**
   * Takes one of `caller`'s `limit` places for `holder` until `deadline` (epoch ms). Answers null when
   * taken, otherwise the epoch ms at which the first place held ends (for `Retry-After`).
   */
  take(input: { caller: string; holder: string; limit: number; deadline: number; now: number }): Promise<number | null>;
  /** Gives the place back; a place not given back (a killed process) ends at its deadline. */
  give(input: { caller: string; holder: string }): Promise<void>;
}

/**
 * One atomic step in Redis: forget the places whose deadline has passed, refuse when `limit` are held
 * (answering the earliest deadline), otherwise take one; the key lives as long as its last place.
 */
const takeScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
return false`;

/** How long a Redis step may take before the request goes on with its instance's own count. */
const defaultTimeoutMs = 1000;

/**
 * Redis unreachable or slow: the instance's own count (already taken) is the limit, as the rate
 * limits fall back to their per-process count, said once per outage. The first failure opens a
 * circuit, as the rate limiter's does: no step goes to Redis until a background PING (one at a time,
 * every `probeIntervalMs`) has answered, so a hung endpoint holds no long poll for its timeout. A
 * place not given back meanwhile ends at its deadline.
 */
export function createUpstashWaitingPlaces(options: {
  url: string;
  token: string;
  keyPrefix: string;
  timeoutMs?: number;
  probeIntervalMs?: number;
}): WaitingPlaces {
  const redis = createUpstashRedis({ url: options.url, token: options.token, timeoutMs: options.timeoutMs ?? defaultTimeoutMs });
  const key = (caller: string) => `${options.keyPrefix}:${caller}`;
  const circuit = createCircuit({
    probe: () => pingThrough(redis),
    probeIntervalMs: options.probeIntervalMs ?? defaultProbeIntervalMs,
    onOpen: (reason) =>
      logger.warn("long polling: Upstash Redis unavailable; waiting requests counted per instance until it answers", { reason }),
    onClose: () => logger.warn("long polling: Upstash Redis answers again"),
  });
  const failed = (error: unknown) => circuit.failed(error instanceof Error ? error.message : String(error));
  return {
    async take({ caller, holder, limit, deadline, now }) {
      if (!circuit.allows()) return null;
      try {
        const answer = await redis.eval<string[], string | null>(
          takeScript,
          [key(caller)],
          [String(now), String(limit), String(deadline), holder, String(deadline - now + 1000)],
        );
        return answer === null ? null : Number(answer);
      } catch (error) {
        failed(error);
        return null;
      }
    },
    async give({ caller, holder }) {
      if (!circuit.allows()) return;
      await redis.zrem(key(caller), holder).catch(failed);
    },
  };
}

let shared: WaitingPlaces | null | undefined;

/** The instances' shared places: Upstash Redis when `UPSTASH_REDIS_REST_URL` and `UPSTASH_REDIS_REST_TOKEN` are set, otherwise none (one instance). */
export function sharedWaitingPlaces(): WaitingPlaces | null {
  if (shared !== undefined) return shared;
  const { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: token } = config();
  shared = url && token ? createUpstashWaitingPlaces({ url, token, keyPrefix: "waiting" }) : null;
  return shared;
}

/** Tests change the environment between cases; they call this to choose again. */
export function resetWaitingPlaces(): void {
  shared = undefined;
}
