import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { localUrlsAllowed } from "@/lib/base/config";
import { classifyAddress } from "@/lib/infra/net/address-ranges";

/**
 * SSRF protection for addresses the service calls on someone else's behalf (webhooks, photo
 * downloads): only public hosts, so a subscriber cannot make us reach this machine or its network.
 */

export type UrlRefusal = "not_a_url" | "scheme_not_allowed" | "credentials_in_url" | "private_address" | "unresolvable" | "too_long";

export type PublicUrlCheck = { ok: true; url: URL } | { ok: false; reason: UrlRefusal };

/** Every address a host name resolves to (A and AAAA alike); tests inject their own. */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface PublicUrlOptions {
  schemes: ("https" | "http")[];
  resolve?: Resolver;
}

/** The published limit for photo URLs, applied to every outbound address. */
export const MAX_URL_LENGTH = 2048;

/** Through getaddrinfo, as a connection would resolve it (so /etc/hosts counts: `localhost` is refused). */
export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** Whether a request may connect to this address. */
export function addressAllowed(address: string): boolean {
  const kind = classifyAddress(address);
  return kind === "public" || (kind === "loopback" && localUrlsAllowed());
}

/**
 * Checks the URL, then its host: an address literal as it stands, a name by resolving it. The result
 * is only a verdict for now: a name can resolve elsewhere later, so requests check again the
 * addresses they connect to (`safePost`).
 */
export async function checkPublicUrl(url: string, options: PublicUrlOptions): Promise<PublicUrlCheck> {
  const form = checkUrlForm(url, options.schemes);
  if (!form.ok) return form;
  if (form.address !== null) return { ok: true, url: form.url };
  const resolved = await resolvePublicAddresses(form.url.hostname, options.resolve ?? systemResolver, form);
  return resolved.ok ? { ok: true, url: form.url } : resolved;
}

/**
 * `address`: the literal host, or null for a name. `loopbackOnly`: the scheme is allowed only by
 * UNSAFE_ALLOW_LOCAL_URLS (`http` to this machine), so a name must resolve to loopback addresses alone.
 */
export type UrlForm = { ok: true; url: URL; address: string | null; loopbackOnly: boolean } | { ok: false; reason: UrlRefusal };

/** The one name that is loopback by definition (RFC 6761 §6.3); any other name under plain `http` stays refused. */
const loopbackName = "localhost";

/**
 * Everything that needs no DNS: length, syntax, scheme, credentials, and the host when it is an
 * address. The WHATWG parser has already turned `2130706433`, `0x7f000001`, `127.1` or `0177.0.0.1`
 * into `127.0.0.1` and compressed IPv6, so the check sees what a connection would use.
 *
 * UNSAFE_ALLOW_LOCAL_URLS (never in production) adds `http` for loopback alone: a loopback literal, or
 * `localhost`, whose answers must then all be loopback. `http` to any other host stays refused, so a
 * test setting it does not open plain-text downloads and deliveries to the world.
 */
export function checkUrlForm(text: string, schemes: readonly ("https" | "http")[]): UrlForm {
  if (text.length > MAX_URL_LENGTH) return { ok: false, reason: "too_long" };
  if (!URL.canParse(text)) return { ok: false, reason: "not_a_url" };
  const url = new URL(text);
  const scheme = url.protocol.slice(0, -1);
  const loopbackOnly = !schemes.includes(scheme as "https" | "http") && scheme === "http" && localUrlsAllowed();
  if (!schemes.includes(scheme as "https" | "http") && !loopbackOnly) return { ok: false, reason: "scheme_not_allowed" };
  // Credentials would be sent to the receiver and kept in our logs with the address.
  if (url.username || url.password) return { ok: false, reason: "credentials_in_url" };
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) === 0) {
    if (loopbackOnly && host !== loopbackName) return { ok: false, reason: "scheme_not_allowed" };
    return { ok: true, url, address: null, loopbackOnly };
  }
  if (!addressAllowed(host)) return { ok: false, reason: "private_address" };
  if (loopbackOnly && classifyAddress(host) !== "loopback") return { ok: false, reason: "scheme_not_allowed" };
  return { ok: true, url, address: host, loopbackOnly };
}

export type ResolvedAddresses = { ok: true; addresses: string[] } | { ok: false; reason: "private_address" | "unresolvable" };

/**
 * A name's addresses, all of them public: one private answer among public ones refuses the name.
 * With `loopbackOnly` (plain `http` to `localhost`), all of them loopback.
 */
export async function resolvePublicAddresses(
  hostname: string,
  resolve: Resolver,
  { loopbackOnly }: { loopbackOnly: boolean },
): Promise<ResolvedAddresses> {
  let addresses: string[];
  try {
    addresses = await resolve(hostname);
  } catch {
    return { ok: false, reason: "unresolvable" };
  }
  if (addresses.length === 0) return { ok: false, reason: "unresolvable" };
  const allowed = (address: string) => (loopbackOnly ? classifyAddress(address) === "loopback" : addressAllowed(address));
  return addresses.every(allowed) ? { ok: true, addresses } : { ok: false, reason: "private_address" };
}
