/**
 * The conditional request headers, compared as the API does (docs/api.md, Listings API): the two
 * comparisons side by side, since they differ on purpose.
 */

/**
 * `If-Match` against a strong tag: the tag verbatim or without its quotes, one of a list, or `*`.
 * Weak tags never match (RFC 9110 §13.1.1 uses the strong comparison).
 */
export function matchesIfMatch(header: string, etag: string): boolean {
  return header
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean)
    .some((tag) => {
      if (tag === "*") return true;
      if (tag.startsWith("W/")) return false;
      const quoted = tag.startsWith('"') ? tag : `"${tag}"`;
      return quoted === etag;
    });
}

/** `If-None-Match` uses the weak comparison (RFC 9110 §13.1.2): a W/ prefix does not prevent a match. */
export function matchesNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}
