/**
 * Per-version withdrawal settings (spec: Versioning). A version being withdrawn gets `Deprecation`
 * (RFC 9745, `@<unix seconds>`) and `Sunset` (RFC 8594, HTTP-date) on every response, announced at
 * least 6 months ahead. Set through the environment so operators announce without a release:
 * API_V1_DEPRECATED_AT and API_V1_SUNSET_AT (ISO 8601 dates).
 */
export interface VersionPolicy {
  deprecatedAt?: Date;
  sunsetAt?: Date;
  link?: string;
}

export function versionPolicy(version: "v1", env: NodeJS.ProcessEnv = process.env): VersionPolicy {
  const prefix = `API_${version.toUpperCase()}_`;
  const date = (name: string) => {
    const raw = env[prefix + name];
    const parsed = raw ? new Date(raw) : undefined;
    return parsed && !Number.isNaN(parsed.getTime()) ? parsed : undefined;
  };
  return { deprecatedAt: date("DEPRECATED_AT"), sunsetAt: date("SUNSET_AT"), link: env[`${prefix}DEPRECATION_LINK`] };
}

export function versionHeaders(policy: VersionPolicy): [string, string][] {
  const headers: [string, string][] = [];
  if (policy.deprecatedAt) headers.push(["Deprecation", `@${Math.floor(policy.deprecatedAt.getTime() / 1000)}`]);
  if (policy.sunsetAt) headers.push(["Sunset", policy.sunsetAt.toUTCString()]);
  if (policy.link && headers.length) headers.push(["Link", `<${policy.link}>; rel="deprecation"`]);
  return headers;
}

let current: { settings: string; headers: [string, string][] } | undefined;

/** The v1 headers for the environment as it is now, parsed again only when a setting changes. */
export function v1VersionHeaders(env: NodeJS.ProcessEnv = process.env): [string, string][] {
  const settings = [env.API_V1_DEPRECATED_AT, env.API_V1_SUNSET_AT, env.API_V1_DEPRECATION_LINK].join("\n");
  if (current?.settings !== settings) current = { settings, headers: versionHeaders(versionPolicy("v1", env)) };
  return current.headers;
}
