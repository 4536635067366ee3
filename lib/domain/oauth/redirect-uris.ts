import { z } from "zod";
import type { FieldIssue } from "@/lib/base/errors";

const loopbackHosts = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Why a redirect address cannot be registered, or undefined when it can: absolute, `https://`, or
 * `http://` on a loopback host for an app on the user's machine (RFC 8252 §7.3, §8.3), no fragment
 * (RFC 6749 §3.1.2).
 */
export function redirectUriProblem(value: string): "redirect_uri_scheme" | "redirect_uri_fragment" | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "redirect_uri_scheme";
  }
  if (value.includes("#")) return "redirect_uri_fragment";
  if (url.protocol === "https:" && url.hostname) return undefined;
  if (url.protocol === "http:" && loopbackHosts.has(url.hostname)) return undefined;
  return "redirect_uri_scheme";
}

export const redirectUri = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .superRefine((value, ctx) => {
    const reason = redirectUriProblem(value);
    if (reason)
      ctx.addIssue({ code: "custom", message: reason, params: { code: "invalid_value", params: { reason } } satisfies FieldIssue });
  });

/** 1 to 10 addresses, each once. */
export const redirectUris = z
  .array(redirectUri)
  .min(1)
  .max(10)
  .transform((uris) => [...new Set(uris)]);

const loopbackPort = /^(http:\/\/(?:127\.0\.0\.1|\[::1\]|localhost))(?::\d{1,5})?(?=[/?]|$)/;

/**
 * Whether a consent request's `redirect_uri` is the registered one: the same string, except that on a
 * loopback `http://` address any port goes (RFC 8252 §7.3: an app on the user's machine listens on
 * whichever port is free at the time). The token request must then repeat the address as requested.
 */
export function redirectMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  if (!loopbackPort.test(registered) || !loopbackPort.test(requested)) return false;
  return registered.replace(loopbackPort, "$1") === requested.replace(loopbackPort, "$1");
}

/**
 * The redirect address with the authorization response's parameters appended: the registered
 * address's own query is kept byte for byte (RFC 6749 §3.1.2), never re-encoded.
 */
export function withParameters(uri: string, parameters: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const separator = !uri.includes("?") ? "?" : uri.endsWith("?") || uri.endsWith("&") ? "" : "&";
  return `${uri}${separator}${query.toString()}`;
}
