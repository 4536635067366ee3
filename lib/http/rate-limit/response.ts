import { AppError } from "@/lib/errors";
import type { RateLimitDecision } from "./rules";

/** The headers every API response carries, plus `Retry-After` on a refusal. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(decision.resetSeconds),
  };
  if (decision.limited) headers["Retry-After"] = String(decision.resetSeconds);
  return headers;
}

/** The 429 problem, with the values its catalogue detail names. */
export const tooManyRequests = (decision: RateLimitDecision): AppError =>
  new AppError("too_many_requests", { limit: decision.limit, retry_after: decision.resetSeconds });

/**
 * The caller's address for per-IP limits: the last `X-Forwarded-For` entry, i.e. the one added by
 * the proxy nearest to the app (Vercel sets the header to the client's address alone; `next start`
 * without a proxy fills it from the socket when absent). Entries further left are whatever the
 * client claimed and would let it pick its own bucket. Without any proxy in front, a client can send
 * the header itself, so a deployment that relies on per-IP limits runs behind one.
 */
export function clientIp(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
  return forwarded || headers.get("x-real-ip")?.trim() || "unknown";
}
