const thisSite = "https://this.site";

/**
 * Whether `path` can only lead to this site: one `/` then anything but `/` or `\` (browsers read
 * `//host` and `/\host` as another host), no control character (header splitting, `/\t/host`, which
 * browsers read without the tab), and resolved against the site it stays there.
 */
function isSitePath(path: string): boolean {
  if (!/^\/(?![/\\])/.test(path) || /[\u0000-\u001f\u007f]/.test(path)) return false;
  try {
    return new URL(path, thisSite).origin === thisSite;
  } catch {
    return false;
  }
}

/**
 * A path on this site taken from a form or a query (where to return after a sign-in or a language
 * switch), or `fallback`: every return path of the portal goes through here. The value is checked,
 * resolved as a browser would resolve it (dot segments, `\` read as `/`), and the result checked
 * again: resolving can itself make `//host` (`/..//evil.example` resolves to the path
 * `//evil.example`), so the form is no open redirect.
 */
export function sitePath(value: unknown, fallback: string): string {
  if (typeof value !== "string" || value.length > 2000 || !isSitePath(value)) return fallback;
  const resolved = new URL(value, thisSite);
  const path = resolved.pathname + resolved.search + resolved.hash;
  return isSitePath(path) ? path : fallback;
}
