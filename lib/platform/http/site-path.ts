const thisSite = "http://this.site";

/**
 * A path on this site taken from a form or a query (where to return after a sign-in or a language
 * switch), or `fallback`. The value is resolved as a browser would resolve it (reading `\` as `/`),
 * so `//host` and `/\host` cannot lead to another site: the form is no open redirect.
 */
export function sitePath(value: unknown, fallback: string): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 2000) return fallback;
  // A path we made never holds control characters; one that does was crafted (header splitting, `/\t/host`).
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;
  let resolved: URL;
  try {
    resolved = new URL(value, thisSite);
  } catch {
    return fallback;
  }
  if (resolved.origin !== thisSite) return fallback;
  return resolved.pathname + resolved.search + resolved.hash;
}
