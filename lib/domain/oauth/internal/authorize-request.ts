import { eq } from "drizzle-orm";
import { oauthClients } from "@/db/schema";
import type { Permission } from "@/lib/domain/keys/format";
import type { ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import type { Locale } from "@/lib/base/i18n";
import { describeError } from "@/lib/domain/oauth/error-description";
import { issuer } from "./issuer";
import { isClientIdUrl, metadataDocumentClient, type OAuthClient } from "./metadata-document";
import { redirectMatches, withParameters } from "@/lib/domain/oauth/redirect-uris";

/** A consent request that passed every check: what the consent page shows, and what Allow and Deny take back. */
export interface AuthorizeRequest {
  /**
   * `selfRegistered`: the app registered itself (RFC 7591) or described itself in a client ID
   * metadata document, and nobody reviewed it, so the page says so and shows what it claims
   * (`clientUri`) beside the host it returns to; `documentHost`: the host serving that document,
   * which vouches for the name (null for the other apps).
   */
  client: { id: string; name: string; selfRegistered: boolean; clientUri: string | null; documentHost: string | null };
  redirectUri: string;
  scope: Permission[];
  state: string;
  codeChallenge: string;
  /** RFC 8707: the resource the key will be bound to; null when the app named none. */
  resource: string | null;
}

export const localeOf = (ctx: ServiceContext): Locale => ctx.locale ?? "ro";

export type RegisteredClient =
  | { found: true; client: OAuthClient }
  | { found: false; reason: "unknown_client" | "unregistered_redirect_uri" }
  /** The `client_id` is a URL whose metadata document could not be fetched or was refused: `error` says why. */
  | { found: false; reason: "client_metadata_document"; error: AppError<"invalid_client"> };

/**
 * The app of a consent request, when its redirect address is one the app registered. A `client_id`
 * that is a URL is a client ID metadata document's: its redirect addresses are the document's.
 */
export async function registeredClient(ctx: ServiceContext, clientId: string, redirectUri: string): Promise<RegisteredClient> {
  let client: OAuthClient | undefined;
  if (isClientIdUrl(clientId)) {
    const described = await metadataDocumentClient(ctx, clientId);
    if (!described.ok) return { found: false, reason: "client_metadata_document", error: described.error };
    client = described.client;
  } else if (clientId.startsWith("svcc_")) {
    [client] = await ctx.db.select().from(oauthClients).where(eq(oauthClients.id, clientId));
  }
  if (!client) return { found: false, reason: "unknown_client" };
  if (!client.redirectUris.some((registered) => redirectMatches(registered, redirectUri)))
    return { found: false, reason: "unregistered_redirect_uri" };
  return { found: true, client };
}

/**
 * The authorization response sent back to the app's redirect address (RFC 6749 §4.1.2, §4.1.2.1),
 * with `iss` (RFC 9207) so an app talking to several servers knows which one answered.
 */
export function redirectWith(redirectUri: string, parameters: Record<string, string | undefined>): string {
  return withParameters(redirectUri, { ...parameters, iss: issuer() });
}

/** An error response at the app's redirect address: the code, its description in ASCII, and `state` when there was one. */
export function errorRedirect(redirectUri: string, error: AppError, locale: Locale, state: string | undefined): string {
  return redirectWith(redirectUri, { error: error.code, error_description: describeError(error, locale), state });
}
