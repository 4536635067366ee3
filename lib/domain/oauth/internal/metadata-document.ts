import { eq } from "drizzle-orm";
import { z } from "zod";
import { oauthClients } from "@/db/schema";
import { localUrlsAllowed } from "@/lib/base/config";
import type { ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import type { ProblemParams } from "@/lib/base/i18n/keys";
import { BodyTooLargeError, OutboundError, safeRequest } from "@/lib/infra/net/safe-request";
import { redirectUriProblem } from "@/lib/domain/oauth/redirect-uris";

/**
 * OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document-02, the MCP
 * authorization spec's preferred way for a client to identify itself): a `client_id` that is an https
 * URL names a JSON document, served there by the client, that describes it. We fetch it through the
 * SSRF-safe client, check it, and keep it as an oauth_clients row whose id is the URL, so codes,
 * connections and keys refer to it as to any other app.
 */

/** §8.7: "The recommended maximum size to read is 5 kilobytes." */
export const metadataDocumentMaxBytes = 5 * 1024;
/** The whole fetch, connection and body included: the account holder is waiting on the consent page. */
export const metadataDocumentTimeoutMs = 5_000;
/**
 * How long a fetched document is used before it is fetched again (§5.2: its HTTP cache headers,
 * within the server's own bounds). At least a minute, so a document served with `no-store` is not
 * fetched again between the consent page and the Allow button; at most a day, so a change of
 * redirect addresses or name reaches the consent page within a day; an hour when the answer says nothing.
 */
export const metadataCacheSeconds = { min: 60, max: 86_400, unspecified: 3_600 } as const;

/** Whether this `client_id` is meant as a document URL (and is then checked as one), rather than an id we issued. */
export function isClientIdUrl(clientId: string): boolean {
  return clientId.startsWith("https://") || clientId.startsWith("http://");
}

/**
 * Whether a `client_id` is a valid Client Identifier URL (§3): https (http
 * only to this machine, for tests, with UNSAFE_ALLOW_LOCAL_URLS, which the outbound client then keeps
 * to loopback), no user or password, a path, no `.` or `..` segment, no fragment. A query is allowed
 * (the draft says only SHOULD NOT).
 */
export function isClientIdentifierUrl(clientId: string): boolean {
  if (clientId.length > 2048 || !URL.canParse(clientId)) return false;
  const url = new URL(clientId);
  const scheme = url.protocol === "https:" || (url.protocol === "http:" && localUrlsAllowed());
  if (!scheme || url.username || url.password || clientId.includes("#")) return false;
  // The parser removes dot segments, so they are looked for in the text as sent.
  const path = clientId
    .slice(clientId.indexOf("//") + 2)
    .replace(/^[^/?]*/, "")
    .split("?")[0];
  if (path === "" || path === "/") return false;
  return !path.split("/").some((segment) => dotSegments.has(segment.toLowerCase()));
}

const dotSegments = new Set([".", "..", "%2e", "%2e%2e", ".%2e", "%2e."]);

export type OAuthClient = typeof oauthClients.$inferSelect;

type Refused = { ok: false; error: AppError<"invalid_client"> };

const refuse = (params: ProblemParams<"invalid_client">): Refused => ({ ok: false, error: new AppError("invalid_client", params) });

export type MetadataClient = { ok: true; client: OAuthClient } | Refused;

// Control and format characters (bidi overrides among them) would let a name pass for another on the consent page.
const invisible = /[\p{Cc}\p{Cf}]/u;

const stringList = z.array(z.string());

interface DocumentClient {
  name: string;
  redirectUris: string[];
  clientUri: string | null;
}

/** The client a fetched document describes, or why it is refused (§4, §4.1; the MCP spec's required members). */
function readDocument(url: string, body: Buffer): { ok: true; client: DocumentClient } | Refused {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return refuse({ reason: "metadata_not_json", url });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return refuse({ reason: "metadata_not_json", url });
  // The members read; any others (logo_uri, contacts, jwks, …) are allowed and not kept.
  const document = parsed as Record<string, unknown>;
  // §4: simple string comparison with the URL it was fetched from.
  if (document.client_id !== url) return refuse({ reason: "metadata_client_id", url });
  if (document.client_secret !== undefined || document.client_secret_expires_at !== undefined)
    return refuse({ reason: "metadata_secret", url });
  // Only public clients: §4.1 rules out shared secrets, and key-based methods (private_key_jwt) are not offered here.
  if (document.token_endpoint_auth_method !== undefined && document.token_endpoint_auth_method !== "none")
    return refuse({ reason: "metadata_auth_method", url });
  const grants = stringList.safeParse(document.grant_types ?? ["authorization_code"]);
  if (
    !grants.success ||
    !grants.data.includes("authorization_code") ||
    grants.data.some((g) => !["authorization_code", "refresh_token"].includes(g))
  )
    return refuse({ reason: "metadata_grant_types", url });
  const responses = stringList.safeParse(document.response_types ?? ["code"]);
  if (!responses.success || responses.data.some((type) => type !== "code")) return refuse({ reason: "metadata_response_types", url });

  const name = typeof document.client_name === "string" ? document.client_name.trim() : "";
  if (!name || name.length > 100 || invisible.test(name)) return refuse({ reason: "metadata_client_name", url });
  const uris = stringList.safeParse(document.redirect_uris);
  if (
    !uris.success ||
    uris.data.length < 1 ||
    uris.data.length > 10 ||
    uris.data.some((uri) => uri.length > 2048 || redirectUriProblem(uri) !== undefined)
  )
    return refuse({ reason: "metadata_redirect_uris", url });
  const clientUri = typeof document.client_uri === "string" && isHttps(document.client_uri) ? document.client_uri : null;
  return { ok: true, client: { name, redirectUris: [...new Set(uris.data)], clientUri } };
}

function isHttps(value: string): boolean {
  return value.length <= 2048 && URL.canParse(value) && new URL(value).protocol === "https:";
}

/**
 * Seconds a document may be used, from its answer's `Cache-Control` (`no-store`, `no-cache`,
 * `max-age`) or else `Expires` against `Date` (RFC 9111 §4.2.1), within `metadataCacheSeconds`.
 */
export function metadataLifetime(headers: Record<string, string>, now: Date): number {
  const { min, max, unspecified } = metadataCacheSeconds;
  const clamp = (seconds: number) => Math.min(max, Math.max(min, Math.floor(seconds)));
  const directives = (headers["cache-control"] ?? "")
    .toLowerCase()
    .split(",")
    .map((directive) => directive.trim());
  if (directives.includes("no-store") || directives.includes("no-cache")) return min;
  const maxAge = directives.map((directive) => /^max-age=(\d+)$/.exec(directive)).find(Boolean);
  if (maxAge) return clamp(Number(maxAge[1]));
  if (headers.expires !== undefined) {
    const expires = Date.parse(headers.expires);
    const date = headers.date !== undefined ? Date.parse(headers.date) : now.getTime();
    // An Expires that does not parse means already expired (RFC 9111 §5.3).
    return Number.isNaN(expires) ? min : clamp((expires - (Number.isNaN(date) ? now.getTime() : date)) / 1000);
  }
  return unspecified;
}

/** Fetches the document at `url` (§5): 200 only, no redirect followed, at most 5 KB, within 5 s, public addresses only. */
async function fetchDocument(url: string, now: Date): Promise<{ ok: true; client: DocumentClient; expiresAt: Date } | Refused> {
  let answer;
  try {
    answer = await safeRequest({
      method: "GET",
      url,
      headers: { accept: "application/json", "user-agent": "Service-OAuth/1" },
      timeoutMs: metadataDocumentTimeoutMs,
      read: "whole",
      maxBytes: metadataDocumentMaxBytes,
      maxRedirects: 0,
    });
  } catch (error) {
    if (error instanceof BodyTooLargeError) return refuse({ reason: "metadata_too_large", url, limit: metadataDocumentMaxBytes });
    if (!(error instanceof OutboundError)) throw error;
    if (error.reason === "refused_address" || error.reason === "refused_url") return refuse({ reason: "metadata_address", url });
    if (error.reason === "timeout") return refuse({ reason: "metadata_timeout", url, seconds: metadataDocumentTimeoutMs / 1000 });
    return refuse({ reason: "metadata_unreachable", url });
  }
  if (answer.status !== 200) return refuse({ reason: "metadata_status", url, status: answer.status });
  const read = readDocument(url, answer.body);
  if (!read.ok) return read;
  return { ok: true, client: read.client, expiresAt: new Date(now.getTime() + metadataLifetime(answer.headers, now) * 1000) };
}

/**
 * The client a Client Identifier URL names: the row kept from its last fetch while that is fresh,
 * otherwise the document fetched again and the row written from it (created on first sight). A
 * failed fetch or a refused document refuses the request and changes nothing kept (§5.2: errors and
 * invalid documents are never cached).
 */
export async function metadataDocumentClient(ctx: ServiceContext, clientId: string): Promise<MetadataClient> {
  if (!isClientIdentifierUrl(clientId)) return refuse({ reason: "metadata_client_id_url" });
  const [kept] = await ctx.db.select().from(oauthClients).where(eq(oauthClients.id, clientId));
  if (kept?.metadataExpiresAt && kept.metadataExpiresAt > ctx.now) return { ok: true, client: kept };
  const fetched = await fetchDocument(clientId, ctx.now);
  if (!fetched.ok) return fetched;
  const described = {
    name: fetched.client.name,
    redirectUris: fetched.client.redirectUris,
    clientUri: fetched.client.clientUri,
    metadataExpiresAt: fetched.expiresAt,
  };
  const [client] = await ctx.db
    .insert(oauthClients)
    .values({ id: clientId, accountId: null, secretHash: null, registration: "metadata_document", createdAt: ctx.now, ...described })
    .onConflictDoUpdate({ target: oauthClients.id, set: described })
    .returning();
  return { ok: true, client };
}

/** The kept row of a document's client, for the token and revocation endpoints: the consent page fetched it. */
export async function keptMetadataClient(ctx: ServiceContext, clientId: string): Promise<OAuthClient | undefined> {
  if (!isClientIdentifierUrl(clientId)) return undefined;
  const [kept] = await ctx.db.select().from(oauthClients).where(eq(oauthClients.id, clientId));
  return kept;
}
