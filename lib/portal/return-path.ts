/** Where a signed-in holder starts when there is no page to return to. */
export const portalStart = "/settings/api/keys";

const thisSite = "http://this.site";

/**
 * A path on this site to return to after signing in (`?next=`), or the portal's start. The value is
 * resolved as a browser would resolve it (which drops tabs and line breaks, and reads `\` as `/`),
 * so `//host`, `/\host` and `/\t/host` cannot lead to another site.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 2000) return portalStart;
  let resolved: URL;
  try {
    resolved = new URL(value, thisSite);
  } catch {
    return portalStart;
  }
  if (resolved.origin !== thisSite) return portalStart;
  return resolved.pathname + resolved.search + resolved.hash;
}
