import { eq } from "drizzle-orm";
import { oauthClients } from "@/db/schema";
import { secretMatches } from "@/lib/base/secret-hash";
import type { ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { isClientIdUrl, keptMetadataClient, type OAuthClient } from "./metadata-document";

export type { OAuthClient };

/** What a client-authenticated endpoint (token, revocation) receives: the `Authorization` header and the form. */
export interface ClientAuthenticatedInput {
  authorization: string | null;
  form: Readonly<Record<string, string>>;
}

/** The realm of the Basic challenge on a 401 after HTTP Basic (RFC 6749 §5.2, RFC 7617). */
export const basicChallenge = 'Basic realm="oauth", charset="UTF-8"';

const invalidClient = (basic: boolean, reason?: "no_client_authentication" | "malformed_basic" | "public_client_secret") =>
  new AppError("invalid_client", reason ? { reason } : {}, {}, basic ? { "WWW-Authenticate": basicChallenge } : {});

/** RFC 6749 §2.3.1: the id and secret inside Basic are each form-urlencoded first. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, "%20"));
  } catch {
    return undefined;
  }
}

function basicCredentials(header: string | null): { id: string; secret: string } | "malformed" | undefined {
  const match = header?.match(/^Basic\s+(\S+)\s*$/i);
  if (!match) return undefined;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(match[1])) return "malformed";
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return "malformed";
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  return id && secret ? { id, secret } : "malformed";
}

/** An app by `client_id`: one we issued (`svcc_…`), or a metadata document's URL as the consent page kept it. */
async function findClient(ctx: ServiceContext, id: string): Promise<OAuthClient | undefined> {
  if (isClientIdUrl(id)) return keptMetadataClient(ctx, id);
  return id.startsWith("svcc_") ? (await ctx.db.select().from(oauthClients).where(eq(oauthClients.id, id)))[0] : undefined;
}

/**
 * Authenticates the app by HTTP Basic or by `client_id` and `client_secret` in the body, one method
 * only (RFC 6749 §2.3). A public client (self-registered, `token_endpoint_auth_method: none`) sends
 * its `client_id` alone and must not send a secret; a confidential one always needs its secret. An
 * unknown id and a wrong secret are the same 401, so whether an id exists never leaks; after Basic
 * the 401 carries the Basic challenge.
 */
export async function authenticateClient(ctx: ServiceContext, input: ClientAuthenticatedInput): Promise<OAuthClient> {
  const basic = basicCredentials(input.authorization);
  const { client_id: bodyId, client_secret: bodySecret } = input.form;
  if (basic !== undefined && bodySecret !== undefined) throw new AppError("invalid_request", { reason: "two_client_authentications" });
  if (basic === "malformed") throw invalidClient(true, "malformed_basic");
  if (basic && bodyId !== undefined && bodyId !== basic.id) throw new AppError("invalid_request", { reason: "client_id_mismatch" });
  const credentials = basic ?? (bodyId && bodySecret ? { id: bodyId, secret: bodySecret } : undefined);
  if (!credentials) {
    const publicClient = bodyId ? await findClient(ctx, bodyId) : undefined;
    if (publicClient && publicClient.secretHash === null) return publicClient;
    throw invalidClient(false, "no_client_authentication");
  }
  const client = await findClient(ctx, credentials.id);
  if (client && client.secretHash === null) throw invalidClient(basic !== undefined, "public_client_secret");
  if (!client?.secretHash || !secretMatches(credentials.secret, client.secretHash)) throw invalidClient(basic !== undefined);
  return client;
}
