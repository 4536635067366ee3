import { z } from "zod";
import { oauthClients } from "@/db/schema";
import { withTransaction, type ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { redirectUriProblem } from "./redirect-uris";

/** What RFC 7591 §3.2.1 answers: the client as registered, with the values this server put in place of the asked ones. */
export interface PublicClientRegistration {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  client_uri?: string;
  redirect_uris: string[];
  token_endpoint_auth_method: "none";
  grant_types: ["authorization_code"];
  response_types: ["code"];
}

const stringList = z.array(z.string()).optional();

/** The members read; the others (logo_uri, contacts, software_id, …) are accepted and not kept (RFC 7591 §2). */
const metadata = z.object({
  redirect_uris: z.unknown().optional(),
  client_name: z.string().optional(),
  client_uri: z.string().optional(),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: stringList,
  response_types: stringList,
});

// Control and format characters (bidi overrides among them) would let a name pass for another on the consent page.
const invisible = /[\p{Cc}\p{Cf}]/u;

const refuse = (
  reason: "auth_method" | "grant_types" | "response_types" | "client_name" | "client_uri" | "malformed",
): AppError<"invalid_client_metadata"> => new AppError("invalid_client_metadata", { reason });

/**
 * `POST /oauth/register` (RFC 7591): an MCP client on someone's machine registers itself as a
 * public client, with no account and no secret, as the MCP authorization spec lets a client that
 * knows nothing but the server's URL. Only public clients (`token_endpoint_auth_method: none`, the
 * default here): an app that keeps a secret is registered by its account in the portal. The grant is
 * the authorization code with PKCE; a `refresh_token` grant asked for is dropped (keys last 365 days
 * and none is refreshed), which the answer shows. Redirect addresses follow the portal's rules.
 * Nobody reviews such a client, so the consent page says it registered itself.
 */
export async function registerPublicClient({ ctx, input }: { ctx: ServiceContext; input: unknown }): Promise<PublicClientRegistration> {
  const parsed = metadata.safeParse(input);
  if (!parsed.success) throw refuse("malformed");
  const asked = parsed.data;
  const method = asked.token_endpoint_auth_method ?? "none";
  if (method !== "none") throw refuse("auth_method");
  const grants = asked.grant_types ?? ["authorization_code"];
  if (!grants.includes("authorization_code") || grants.some((grant) => grant !== "authorization_code" && grant !== "refresh_token"))
    throw refuse("grant_types");
  if (asked.response_types && asked.response_types.some((type) => type !== "code")) throw refuse("response_types");

  const uris = asked.redirect_uris;
  if (
    !Array.isArray(uris) ||
    uris.length < 1 ||
    uris.length > 10 ||
    uris.some((uri) => typeof uri !== "string" || uri.length > 2048 || redirectUriProblem(uri) !== undefined)
  )
    throw new AppError("invalid_redirect_uri");
  const redirectUris = [...new Set(uris as string[])];

  const name = (asked.client_name ?? new URL(redirectUris[0]).host).trim();
  if (!name || name.length > 100 || invisible.test(name)) throw refuse("client_name");
  const clientUri = asked.client_uri?.trim() || undefined;
  if (clientUri !== undefined && (clientUri.length > 2048 || !isHttps(clientUri))) throw refuse("client_uri");

  const clientId = newId("client");
  await withTransaction(ctx, (tx) =>
    tx.db.insert(oauthClients).values({
      id: clientId,
      accountId: null,
      name,
      redirectUris,
      secretHash: null,
      registration: "dynamic",
      clientUri: clientUri ?? null,
      createdAt: ctx.now,
    }),
  );
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(ctx.now.getTime() / 1000),
    client_name: name,
    ...(clientUri ? { client_uri: clientUri } : {}),
    redirect_uris: redirectUris,
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code"],
    response_types: ["code"],
  };
}

function isHttps(value: string): boolean {
  try {
    return new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}
