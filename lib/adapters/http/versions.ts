import { config } from "@/lib/base/config";

/**
 * Per-version withdrawal settings. A version being withdrawn gets `Deprecation`
 * (RFC 9745, `@<unix seconds>`) and `Sunset` (RFC 8594, HTTP-date) on every response, announced at
 * least 6 months ahead. Set through the environment so operators announce without a code change:
 * API_V1_DEPRECATED_AT and API_V1_SUNSET_AT (ISO 8601 dates), API_V1_DEPRECATION_LINK.
 */
interface VersionPolicy {
  deprecatedAt?: Date;
  sunsetAt?: Date;
  link?: string;
}

function date(raw: string | undefined): Date | undefined {
  const parsed = raw ? new Date(raw) : undefined;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : undefined;
}

function versionHeaders(policy: VersionPolicy): [string, string][] {
  const headers: [string, string][] = [];
  if (policy.deprecatedAt) headers.push(["Deprecation", `@${Math.floor(policy.deprecatedAt.getTime() / 1000)}`]);
  if (policy.sunsetAt) headers.push(["Sunset", policy.sunsetAt.toUTCString()]);
  if (policy.link && headers.length) headers.push(["Link", `<${policy.link}>; rel="deprecation"`]);
  return headers;
}

let current: { settings: string; headers: [string, string][] } | undefined;

/** The v1 headers for the configuration as it is now, parsed again only when a setting changes. */
export function v1VersionHeaders(): [string, string][] {
  const c = config();
  const settings = [c.API_V1_DEPRECATED_AT, c.API_V1_SUNSET_AT, c.API_V1_DEPRECATION_LINK].join("\n");
  if (current?.settings !== settings) {
    const policy = { deprecatedAt: date(c.API_V1_DEPRECATED_AT), sunsetAt: date(c.API_V1_SUNSET_AT), link: c.API_V1_DEPRECATION_LINK };
    current = { settings, headers: versionHeaders(policy) };
  }
  return current.headers;
}
