import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { connectionIdColumn } from "./oauth";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    // SHA-256 of the secret part: the secret is 40 random characters, so a slow hash adds nothing.
    secretHash: text("secret_hash").notNull(),
    permissions: text("permissions").array().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    // Set on a key granted through OAuth consent: the connected app it belongs to (null: made in the portal or the CLI).
    connectionId: connectionIdColumn(),
    // RFC 8707: the only resource (endpoint URL) that accepts a key granted for one; null: the REST API and MCP alike.
    resource: text("resource"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("api_keys_account_idx").on(t.accountId), index("api_keys_connection_idx").on(t.connectionId)],
);
