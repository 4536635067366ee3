/**
 * What the API log may keep of a request: secrets removed, and every string made storable.
 * Secrets are members whose name says secret and any string carrying one of our secret formats
 * (API keys, webhook secrets, client secrets). PostgreSQL `text` cannot hold U+0000 and `jsonb`
 * refuses lone surrogates too, so such characters become U+FFFD: the row records what was sent
 * as closely as storage allows instead of failing (and failing its batch).
 */
const secretMember = /pass(word)?|secret|token|authorization|api_?key|code_verifier/i;
/** Query parameters are also named by OAuth and signed-URL conventions (`?code=`, `?key=`, `?sig=`). */
const secretQueryParameter = /^(key|code|sig|signature)$/i;
const secretValue = /(svc_(test|live)_|whsec_|svcs_)[A-Za-z0-9+/=_-]+/g;
const redacted = "[redacted]";

/** A string PostgreSQL can store (`text` and `jsonb`), secrets removed. */
export function storableText(value: string): string {
  return value.toWellFormed().replaceAll("\u0000", "\uFFFD").replace(secretValue, redacted);
}

/**
 * A JSON value for a `jsonb` column: secret members and secret strings redacted, strings storable,
 * and links (paging links echo the request's query) stripped of secret parameters like the query.
 */
export function loggable(value: unknown): unknown {
  if (typeof value === "string") return link.test(value) ? loggableLink(value) : storableText(value);
  if (Array.isArray(value)) return value.map(loggable);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([name, member]) => [storableText(name), secretMember.test(name) ? redacted : loggable(member)]),
    );
  }
  return value;
}

const link = /^https?:\/\/[^?#\s]*\?/;

/**
 * Whether `loggable` leaves the value of this JSON text (as `JSON.stringify` writes it) as it is, so
 * the log can keep the text without walking the value: no member or string that looks secret, no
 * `\u0000` or lone surrogate (which `JSON.stringify` writes as escapes), no link with a query. The
 * look is over the whole text, names and strings alike, so it errs one way only: on false the value
 * is walked.
 */
export function loggableAsIs(json: string): boolean {
  return !secretMember.test(json) && !secretValueAnywhere.test(json) && !unstorableEscape.test(json) && !linkWithQuery.test(json);
}

const secretValueAnywhere = new RegExp(secretValue.source);
const unstorableEscape = /\\u(0000|d[89a-f])/i;
const linkWithQuery = /https?:\/\/[^"?#\s]*\?/;

function loggableLink(value: string): string {
  const start = value.indexOf("?");
  const end = value.indexOf("#", start);
  const search = end < 0 ? value.slice(start) : value.slice(start, end);
  return storableText(value.slice(0, start)) + (loggableQuery(search) ?? "") + (end < 0 ? "" : storableText(value.slice(end)));
}

/** The query string (`?a=b`) with every secret parameter's value redacted, repeated names kept. */
export function loggableQuery(search: string): string | null {
  if (!search) return null;
  const kept = [...new URLSearchParams(search)].map(([name, value]) =>
    secretMember.test(name) || secretQueryParameter.test(name)
      ? `${encodeURIComponent(name)}=${redacted}`
      : new URLSearchParams([[name, value]]).toString(),
  );
  return storableText(`?${kept.join("&")}`);
}
