import { and, eq, isNotNull, ne, notExists, sql } from "drizzle-orm";
import {
  idempotencyKeys,
  jobs,
  listingImports,
  oauthClients,
  oauthCodes,
  oauthConnections,
  sandboxMail,
  sandboxWebhookReceipts,
  webhookDeliveries,
} from "@/db/schema";
import { apiLogBodyDays, apiLogDays } from "@/lib/domain/api-log/retention";
import { unconsentedClientDays } from "@/lib/domain/oauth/retention";
import type { RetentionRule } from "./retention";

/**
 * The retention limits applied row by row (docs/jobs.md, Jobs) by the `retention.cleanup` job. A new limit
 * is one more entry here; the API log and events, partitioned by day, are in partitions.ts.
 */
export const retentionRules: readonly RetentionRule[] = [
  { name: "jobs.done", keepDays: 7, table: jobs, key: jobs.id, age: jobs.finishedAt, where: eq(jobs.status, "done") },
  // Failed jobs stay longer: an operator may still be looking into why they failed.
  { name: "jobs.failed", keepDays: 30, table: jobs, key: jobs.id, age: jobs.finishedAt, where: eq(jobs.status, "failed") },
  // The delivery log; a delivery is finished within about 9 hours, long before.
  { name: "webhook_deliveries", keepDays: 30, table: webhookDeliveries, key: webhookDeliveries.id, age: webhookDeliveries.createdAt },
  // A key is remembered 10 minutes; an expired row is inert (the next use replaces it), so a day's delay is harmless.
  { name: "idempotency_keys.expired", keepDays: 1, table: idempotencyKeys, key: idempotencyKeys.id, age: idempotencyKeys.expiresAt },
  // The sandbox mailbox holds confirmation and reset links, useful for minutes: a week is plenty.
  { name: "sandbox_mail", keepDays: 7, table: sandboxMail, key: sandboxMail.id, age: sandboxMail.createdAt },
  // What reached the sandbox's webhook receiver: something to look at while trying the API, like the mailbox.
  {
    name: "sandbox_webhook_receipts",
    keepDays: 7,
    table: sandboxWebhookReceipts,
    key: sandboxWebhookReceipts.id,
    age: sandboxWebhookReceipts.receivedAt,
  },
  // A completed import's NDJSON lines are a request body: kept as long as the API log keeps bodies.
  {
    name: "listing_imports.body",
    keepDays: apiLogBodyDays,
    table: listingImports,
    key: listingImports.id,
    age: listingImports.completedAt,
    where: isNotNull(listingImports.body),
    clear: [listingImports.body],
  },
  // The import and its results (one row a line, deleted with it), as long as the API log keeps its other information.
  { name: "listing_imports", keepDays: apiLogDays, table: listingImports, key: listingImports.id, age: listingImports.completedAt },
  // An authorization code lives 60 seconds; a used one is kept a week so that a replay still revokes the key it granted.
  { name: "oauth_codes.expired", keepDays: 7, table: oauthCodes, key: oauthCodes.id, age: oauthCodes.expiresAt },
  // A client that registered itself, or that a metadata document described, and that no account ever
  // connected (no connection, not even an ended one, and no code still kept). An account's own apps stay.
  {
    name: "oauth_clients.unconsented",
    keepDays: unconsentedClientDays,
    table: oauthClients,
    key: oauthClients.id,
    age: oauthClients.createdAt,
    where: and(
      ne(oauthClients.registration, "account"),
      notExists(sql`(select 1 from ${oauthConnections} where ${oauthConnections.clientId} = ${oauthClients.id})`),
      notExists(sql`(select 1 from ${oauthCodes} where ${oauthCodes.clientId} = ${oauthClients.id})`),
    ),
  },
];
