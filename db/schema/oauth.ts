import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * OAuth clients. An integrator app registered by an account is confidential: `id` is the public
 * `client_id` (`svcc_…`) and only the SHA-256 of its `client_secret` (`svcs_…`) is stored. An app
 * that registered itself (RFC 7591, an MCP client on someone's machine) is public: no account owns it,
 * it has no secret, and PKCE alone binds its codes; nobody reviewed it, so the consent page says so.
 * A client whose `client_id` is the https URL of its client ID metadata document
 * (draft-ietf-oauth-client-id-metadata-document) is public too: `id` is that URL, and the row is the
 * document as last fetched, kept until `metadataExpiresAt` and fetched again after.
 */
export const oauthClients = pgTable(
  "oauth_clients",
  {
    id: text("id").primaryKey(),
    // Null for a self-registered public client.
    accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    redirectUris: text("redirect_uris").array().notNull(),
    // Null for a public client (`token_endpoint_auth_method: none`).
    secretHash: text("secret_hash"),
    registration: text("registration", { enum: ["account", "dynamic", "metadata_document"] })
      .notNull()
      .default("account"),
    // What the self-registered client said about itself (RFC 7591 `client_uri`), shown on the consent page as unverified.
    clientUri: text("client_uri"),
    // A metadata document's client: when the fetched copy goes stale (its cache headers, within bounds); null for the others.
    metadataExpiresAt: timestamp("metadata_expires_at", { withTimezone: true }),
    secretRotatedAt: timestamp("secret_rotated_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("oauth_clients_account_idx").on(t.accountId)],
);

/**
 * An account's consent to one app: at most one per (account, app), so a second consent keeps the
 * `connection_id` integrators store. Its key is the api_keys row with this `connection_id`;
 * disconnecting sets `disconnected_at` and revokes that key.
 */
export const oauthConnections = pgTable(
  "oauth_connections",
  {
    // `connection_id` of the token answer and `connection` of an app's webhook events: an integer.
    id: serial("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    scope: text("scope").array().notNull(),
    connectedAt: timestamp("connected_at", { withTimezone: true }).notNull().defaultNow(),
    disconnectedAt: timestamp("disconnected_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("oauth_connections_account_client_idx").on(t.accountId, t.clientId)],
);

/**
 * Authorization codes: 60 seconds, single use. Only the SHA-256 of the code is stored; `keyId` is the
 * key its exchange granted, revoked when the code is presented again (RFC 6749 §4.1.2).
 */
export const oauthCodes = pgTable(
  "oauth_codes",
  {
    id: text("id").primaryKey(),
    codeHash: text("code_hash").notNull(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    redirectUri: text("redirect_uri").notNull(),
    scope: text("scope").array().notNull(),
    codeChallenge: text("code_challenge").notNull(),
    // RFC 8707: the resource the consent was asked for (null: none named); the key it grants is bound to it.
    resource: text("resource"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    keyId: text("key_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("oauth_codes_hash_idx").on(t.codeHash), index("oauth_codes_expires_idx").on(t.expiresAt)],
);

export const connectionIdColumn = () => integer("connection_id").references(() => oauthConnections.id, { onDelete: "set null" });
