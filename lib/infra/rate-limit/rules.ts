/** A limit of `limit` requests per fixed window of `windowSeconds`, counted per bucket. */
export interface RateRule {
  /** Part of the counter's key, so two rules never share a counter for the same bucket. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  limited: boolean;
  limit: number;
  /** Requests left in the window; never negative, 0 once limited. */
  remaining: number;
  /** Whole seconds until the window frees (≥ 1): `X-RateLimit-Reset` and, when limited, `Retry-After`. */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Counts one request of `bucket` under `rule` (also when it is refused) and says whether it is over. */
  hit(bucket: string, rule: RateRule): Promise<RateLimitDecision>;
}

/** The published limits (docs/api.md, API decisions): per key, per IP for keyless requests, and the vocabulary per IP. */
export const rateRules = {
  key: { name: "key", limit: 300, windowSeconds: 60 },
  ip: { name: "ip", limit: 300, windowSeconds: 60 },
  schema: { name: "schema", limit: 60, windowSeconds: 60 },
  /** Posts to one address of the sandbox's webhook receiver (lib/domain/webhooks/sandbox-receiver.ts). */
  sandboxReceiver: { name: "sandbox-receiver", limit: 120, windowSeconds: 60 },
  /** Self-registrations of OAuth clients (`POST /oauth/register`) per address: a client registers once per machine. */
  clientRegistration: { name: "client-registration", limit: 20, windowSeconds: 3600 },
} as const satisfies Record<string, RateRule>;

/** Whole seconds from `now` until `resetAt` (both epoch ms), at least 1 so a client never retries at once. */
export const secondsUntil = (resetAt: number, now: number): number => Math.max(1, Math.ceil((resetAt - now) / 1000));
