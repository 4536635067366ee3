import { eq, sql } from "drizzle-orm";
import type { Database, Handle } from "@/db";
import { builtOnce } from "@/db/built-once";
import { accounts, agencyMembers, apiKeys } from "@/db/schema";
import { config } from "@/lib/base/config";
import { AppError } from "@/lib/base/errors";
import { parseKey, type Permission } from "./format";
import { secretMatches } from "@/lib/base/secret-hash";
import { markKeyUsed } from "./last-used";

export interface Principal {
  /** `resource`: the one endpoint URL an OAuth key granted with RFC 8707 `resource` is for; null for any. */
  key: { id: string; name: string; permissions: Permission[]; resource: string | null };
  account: {
    id: string;
    email: string;
    name: string;
    phone: string | null;
    language: "ro" | "en";
    /** False while a changed e-mail address awaits confirmation: reads go on, writes are refused. */
    confirmed: boolean;
    agency: { id: string; role: "owner" | "admin" | "agent" } | null;
  };
}

type UnauthenticatedReason = "missing_key" | "malformed_key" | "production_key" | "sandbox_key";

/**
 * Every 401 carries the RFC 6750 §3 challenge: `Bearer` alone when no key was sent, with
 * `error="invalid_token"` once one was (no `error_description`: it would have to be ASCII, and the
 * problem's `detail` says it in the request's language).
 */
const unauthenticated = (reason?: UnauthenticatedReason) =>
  new AppError(
    "unauthenticated",
    reason ? { reason } : {},
    {},
    {
      "WWW-Authenticate": reason === "missing_key" ? "Bearer" : 'Bearer error="invalid_token"',
    },
  );

/** Bearer value of the Authorization header, or undefined when absent or not a Bearer credential. */
export function bearerToken(header: string | null): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/**
 * Resolves a key to its account in one query. What the credential shows by itself is told apart
 * (no key, not shaped like a key, a key of the other environment by its prefix); every failure that
 * needs the database (unknown id, wrong secret, expired, revoked, inactive account) is the same 401,
 * so whether a key id exists never leaks.
 */
export async function authenticate(database: Database, token: string | undefined, now: Date): Promise<Principal> {
  if (!token) throw unauthenticated("missing_key");
  const parsed = parseKey(token);
  if (!parsed) throw unauthenticated("malformed_key");
  if (parsed.environment !== config().APP_ENV)
    throw unauthenticated(parsed.environment === "production" ? "production_key" : "sandbox_key");
  const [row] = await keyLookup.run(database.connection, { id: parsed.id });
  if (
    !row ||
    !secretMatches(parsed.secret, row.secretHash) ||
    row.environment !== parsed.environment ||
    row.revokedAt ||
    row.expiresAt <= now ||
    !row.active
  ) {
    throw unauthenticated();
  }
  markKeyUsed(row.keyId, now);
  return {
    key: { id: row.keyId, name: row.keyName, permissions: row.permissions as Permission[], resource: row.resource },
    account: {
      id: row.accountId,
      email: row.email,
      name: row.name,
      phone: row.phone,
      language: row.language,
      confirmed: row.confirmed,
      agency: row.agencyId && row.agencyRole ? { id: row.agencyId, role: row.agencyRole } : null,
    },
  };
}

const keySelection = {
  keyId: apiKeys.id,
  keyName: apiKeys.name,
  secretHash: apiKeys.secretHash,
  environment: apiKeys.environment,
  permissions: apiKeys.permissions,
  resource: apiKeys.resource,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
  accountId: accounts.id,
  email: accounts.email,
  name: accounts.name,
  phone: accounts.phone,
  language: accounts.language,
  active: accounts.active,
  confirmed: accounts.confirmed,
  agencyId: agencyMembers.agencyId,
  agencyRole: agencyMembers.role,
};

const selectKey = (db: Handle) =>
  db
    .select(keySelection)
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .leftJoin(agencyMembers, eq(agencyMembers.accountId, accounts.id))
    .where(eq(apiKeys.id, sql.placeholder("id")));

/** The key lookup runs on every request: built once, so each request only binds the id. */
const keyLookup = builtOnce<Awaited<ReturnType<typeof selectKey>>[number]>(keySelection, selectKey);

/**
 * RFC 8707: a key granted for one resource is refused elsewhere (401 `invalid_token`), so a token an
 * AI agent holds for the MCP endpoint is no token for the REST API, nor the reverse.
 */
export function requireResource(principal: Principal, served: string): void {
  if (principal.key.resource !== null && principal.key.resource !== served)
    throw new AppError(
      "unauthenticated",
      { reason: "other_resource", resource: principal.key.resource },
      {},
      { "WWW-Authenticate": 'Bearer error="invalid_token"' },
    );
}

/**
 * The key must hold the endpoint's permission (403 `missing_ability`). Writing also needs a confirmed
 * account, as creating keys does: any other denial is 403 `forbidden`.
 */
export function requirePermission(principal: Principal, permission: Permission): void {
  if (!principal.key.permissions.includes(permission)) throw new AppError("missing_ability", { permission });
  if (permission !== "listings:read" && !principal.account.confirmed) throw new AppError("forbidden");
}
