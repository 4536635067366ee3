import { isIP } from "node:net";
import { config } from "./config";

/**
 * The caller's address for per-address limits and the API log, by the trust model of docs/api.md,
 * "Client address": each of the `TRUSTED_PROXY_HOPS` proxies in front appends the address it was
 * connected from to `X-Forwarded-For`, so the entry that many places from the end is the one the
 * outermost trusted proxy saw; entries before it are the client's own word and never chosen. The API's
 * wrapper and the portal's forms (sign-in, reports) read it alike.
 */
export function clientIp(forwardedFor: string | null, hops = config().TRUSTED_PROXY_HOPS): string {
  const entries = (forwardedFor ?? "").split(",").map((entry) => entry.trim());
  const trusted = entries.at(-hops) ?? entries[0];
  return isIP(trusted) ? trusted : "unknown";
}
